package io.jasyncio.loop;

import java.time.Duration;
import java.util.Objects;

/**
 * A clock for tests: it starts at zero and stands still; whenever the loop is idle it jumps to the
 * next timer instead of sleeping (Tokio's paused time). A retry with an hour of backoff, a
 * {@code waitFor} timeout or a heartbeat then runs in microseconds, in the order real time would
 * give: (deadline, scheduling order).
 *
 * <p>Idle means: no callback is ready, no thread-safe submission is pending, the poller, polled
 * without waiting, reports no I/O event, and no blocking work is outstanding. So:
 * <ul>
 *   <li><b>I/O still happens.</b> Readiness the kernel already has wins over timers. On loopback,
 *       what one end writes (a connect, data, a close, a refusal) is ready at the other end by the
 *       next poll, so both ends on the same loop behave as in real time. The loop cannot know that
 *       a peer elsewhere (another thread, another process) is about to answer: around such an
 *       exchange, {@link #hold()} the clock.</li>
 *   <li><b>Blocking work keeps real time.</b> While {@code runInExecutor} (and {@code toThread},
 *       and a host name lookup) has work outstanding, the loop is not idle: the clock runs at real
 *       speed and timers wait their real delay, so a timeout around slow blocking work fires as it
 *       would on a real clock. Times measured across such work include its real duration.
 *       (Tokio freezes the clock instead, so a timeout around stuck blocking work never fires.)</li>
 * </ul>
 *
 * <p>Use it on a loop that has not scheduled anything yet: {@code loop.setClock(new VirtualClock())}
 * (or {@code @AsyncTest(virtualTime = true)}). Call {@link #advance} and {@link #hold} on the loop's
 * thread; {@link #nanoTime()} can be read anywhere.
 */
public final class VirtualClock implements LoopClock {
    /**
     * How long the loop may come back idle, at one instant, with a timer due then: the loop moves a
     * due timer right after {@link #idle}, so only a chain of zero-delay timers returns here at the
     * same instant, each turn running one. A second of real time and {@value #STALLED_TURNS_MIN}
     * turns of it is a loop that does not run its due timers, which this clock cannot get out of
     * (time never moves): it fails instead of spinning for ever.
     */
    static final long STALLED_NANOS_LIMIT = 1_000_000_000L;
    static final int STALLED_TURNS_MIN = 10_000;

    private volatile long now;     // while not held
    private long stalledAt;        // the instant of the last idle turn with a timer due
    private int stalledTurns;      // how many such turns in a row at that instant
    private long stalledSince;     // System.nanoTime() at the STALLED_TURNS_MIN-th of them
    private int holds;             // outstanding blocking work and hold() scopes
    private long realAtHold;       // System.nanoTime() when the first hold began
    private long virtualAtHold;    // this clock's time then

    /** A clock at 0 that moves only when advanced (see the class comment). */
    public VirtualClock() {
    }

    @Override
    public long nanoTime() {
        return holds == 0 ? now : virtualAtHold + (System.nanoTime() - realAtHold);
    }

    /** Seconds, as {@link EventLoop#time()} reads it. */
    public double time() {
        return nanoTime() / 1e9;
    }

    /**
     * Moves the clock forward by {@code step}. Timers that become due run in the loop's next
     * iteration, in (deadline, scheduling order). To let them run before going on, a task can
     * simply {@code sleep(step)}: with this clock that takes no real time either.
     */
    public void advance(Duration step) {
        Objects.requireNonNull(step, "step");
        if (step.isNegative()) {
            throw new IllegalArgumentException("a clock only moves forward, not by " + step);
        }
        long nanos = step.toNanos();
        if (holds == 0) {
            now += nanos;
        } else {
            virtualAtHold += nanos;
        }
    }

    /**
     * Keeps real time until the returned hold is closed: the clock runs at real speed and does not
     * jump, so a peer outside the loop gets the real time it needs to answer before a timeout
     * fires. Holds nest. Use it as a resource: {@code try (var h = clock.hold()) { ... }}.
     */
    public Hold hold() {
        blockingWorkStarted();
        return new Hold(this);
    }

    /** An open {@link #hold()}; closing it (once) lets the clock jump again when the loop is idle. */
    public static final class Hold implements AutoCloseable {
        private VirtualClock clock;

        private Hold(VirtualClock clock) {
            this.clock = clock;
        }

        @Override
        public void close() {
            if (clock != null) {
                clock.blockingWorkEnded();
                clock = null;
            }
        }
    }

    @Override
    public long selectTimeout(long nanosUntilNextTimer) {
        if (holds > 0 || nanosUntilNextTimer <= 0) {
            return nanosUntilNextTimer; // real time (held), a due timer (0), or nothing to jump to (-1)
        }
        return 0; // poll: if nothing comes, idle() jumps
    }

    @Override
    public long idle(long now, long nanosUntilNextTimer) {
        if (holds == 0 && nanosUntilNextTimer == 0) {
            stalledTurns = now == stalledAt ? stalledTurns + 1 : 1;
            stalledAt = now;
            if (stalledTurns == STALLED_TURNS_MIN) {
                stalledSince = System.nanoTime();
            } else if (stalledTurns > STALLED_TURNS_MIN && System.nanoTime() - stalledSince > STALLED_NANOS_LIMIT) {
                throw new IllegalStateException("the loop is idle with a timer due at " + time() + " s, "
                        + stalledTurns + " turns in a row: it does not run its due timers, and a virtual clock cannot move");
            }
        } else {
            stalledTurns = 0;
        }
        if (holds == 0 && nanosUntilNextTimer > 0) {
            this.now = now + nanosUntilNextTimer; // the jump: the next timer is due now
            return this.now;
        }
        return now;
    }

    @Override
    public void blockingWorkStarted() {
        if (holds++ == 0) {
            virtualAtHold = now;
            realAtHold = System.nanoTime();
        }
    }

    @Override
    public void blockingWorkEnded() {
        if (holds <= 0) {
            throw new IllegalStateException("more holds released than taken");
        }
        if (holds == 1) {
            now = nanoTime(); // keep the real time that passed while held
        }
        holds--;
    }

    @Override
    public String toString() {
        return "virtual clock at " + time() + " s" + (holds > 0 ? " (held: " + holds + ")" : "");
    }
}
