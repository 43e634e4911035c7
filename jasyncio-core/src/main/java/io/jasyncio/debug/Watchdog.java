package io.jasyncio.debug;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Handle;
import io.jasyncio.loop.LoopObserver;
import io.jasyncio.task.Tasks;

import jdk.jfr.FlightRecorder;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Notices a loop held by one handle past a threshold and says <em>where</em>: a daemon thread
 * looks at the running handle's start time and, once it is older than the threshold, takes the
 * loop thread's stack while the handle is still running (on the portable task engine, the stack
 * of the task body's own thread when a task is running: that is where the blocking frame is). Debug mode's slow-callback line can only
 * say how long, after the fact; this report names the blocking frame (the method that called
 * {@code Thread.sleep}, the CPU-bound verify, the blocking read). One report per blocked episode.
 *
 * <p>The loop side is five volatile writes per handle (three as it starts, two as it finishes)
 * through {@link LoopObserver}; nothing at all when no watchdog is installed. Reports go to the {@code io.jasyncio.debug}
 * {@link System.Logger} at WARNING (at DEBUG when the stack is the JVM warming up: {@link WarmUp}),
 * to the optional listener, and to JFR as {@link BlockedLoopEvent} when recorded.
 *
 * <pre>{@code
 * try (Watchdog watchdog = Watchdog.install(loop, 0.1, report -> ...)) { loop.runForever(); }
 * }</pre>
 */
public final class Watchdog implements LoopObserver, AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.jasyncio.debug");

    private final EventLoop loop;
    private final long thresholdNanos;
    private final Consumer<BlockedLoopReport> listener;
    /** Null: the log gets the whole report, stack included; else one line ending with where the stack went. */
    private final String stackGoesTo;
    private final Thread thread;
    /** Whose stack to take: the loop's thread, or the body thread of the task it runs (portable engine). */
    private final Supplier<Thread> threadRunning;

    // Written by the loop thread, read by the watchdog thread. runningSince is written last on
    // start and first on finish, so a non-zero value always comes with its handle.
    private volatile Handle running;
    private volatile long episode;
    private volatile long runningSince; // 0: no handle running
    /** The outermost eager task step running inside the handle now, or null. */
    private volatile Handle runningEager;

    private long reportedEpisode = -1; // watchdog thread only
    private volatile boolean closed;

    private Watchdog(EventLoop loop, double thresholdSeconds, Consumer<BlockedLoopReport> listener, String stackGoesTo) {
        if (!(thresholdSeconds > 0)) {
            throw new IllegalArgumentException("threshold must be > 0 seconds, not " + thresholdSeconds);
        }
        this.loop = Objects.requireNonNull(loop, "loop");
        this.thresholdNanos = (long) (thresholdSeconds * 1e9);
        this.listener = listener;
        this.stackGoesTo = stackGoesTo;
        this.threadRunning = Tasks.threadRunning(loop);
        this.thread = Thread.ofPlatform().daemon().name("jasyncio-watchdog").unstarted(this::watch);
    }

    /**
     * Starts a watchdog over {@code loop} (next to any observers already installed) reporting
     * handles that run longer than {@code thresholdSeconds}; {@code listener} may be null.
     * Install on the loop's thread or before it runs; {@link #close()} removes it.
     */
    public static Watchdog install(EventLoop loop, double thresholdSeconds, Consumer<BlockedLoopReport> listener) {
        return install(loop, thresholdSeconds, listener, null);
    }

    /**
     * As {@link #install(EventLoop, double, Consumer)}; with {@code stackGoesTo} (where the
     * listener puts the stack) a report is one line on standard error instead of the logged stack:
     * for the doctor, whose report has the stack and must not fill the program's output with it.
     */
    public static Watchdog install(EventLoop loop, double thresholdSeconds, Consumer<BlockedLoopReport> listener,
                            String stackGoesTo) {
        Watchdog watchdog = new Watchdog(loop, thresholdSeconds, listener, stackGoesTo);
        CompositeObserver.add(loop, watchdog);
        watchdog.thread.start();
        return watchdog;
    }

    // ---- the loop side: a few volatile writes per handle ---------------------------------------

    @Override
    public void handleStarting(Handle handle, long startNanos) {
        running = handle;
        episode++; // single writer: the loop thread
        runningSince = startNanos == 0 ? 1 : startNanos;
    }

    @Override
    public void handleFinished(Handle handle, long nanos) {
        runningSince = 0;
        running = null;
        runningEager = null;
    }

    @Override
    public void eagerStepStarting(Handle step, long startNanos) {
        runningEager = step;
    }

    @Override
    public void eagerStepFinished(Handle step, long nanos) {
        runningEager = null;
    }

    // ---- the watchdog side ---------------------------------------------------------------------

    private void watch() {
        long period = Math.max(1_000_000L, thresholdNanos / 4);
        while (!closed) {
            LockSupport.parkNanos(this, period);
            try {
                check();
            } catch (Throwable t) {
                LOG.log(System.Logger.Level.ERROR, "watchdog check failed", t);
            }
        }
    }

    private void check() {
        long since = runningSince;
        if (since == 0) {
            return;
        }
        long seen = episode;
        Handle handle = running;
        Thread loopThread = loop.thread();
        long blocked = System.nanoTime() - since;
        if (blocked < thresholdNanos || seen == reportedEpisode || handle == null || loopThread == null) {
            return;
        }
        Handle eager = runningEager;
        Thread holder = threadRunning.get();
        if (holder == null) {
            return; // the loop stopped meanwhile
        }
        StackTraceElement[] stack = holder.getStackTrace();
        if (runningSince != since || episode != seen) {
            return; // it finished while we looked: the stack may belong to something else
        }
        if (waitsForItsTurn(stack)) {
            return; // a task body between turns: the engine's hand-off waits for a CPU, no code holds the loop yet
        }
        reportedEpisode = seen;
        if (runningEager != eager) {
            eager = null; // the eager step ended (or another began) while we looked: name the handle alone
        }
        report(new BlockedLoopReport(loopThread.getName(), handle.describeForReport(), blocked, Arrays.asList(stack),
                eager != null ? eager.describeForReport() : null));
    }

    /**
     * Whether {@code stack} (a task body's thread on the portable engine) is parked in the hand-off
     * between the loop and the body: the body is not running code, the wait is for the scheduler
     * (a loaded machine), and the episode is looked at again on the next check.
     */
    static boolean waitsForItsTurn(StackTraceElement[] stack) {
        StackTraceElement frame = new BlockedLoopReport("", "", 0, Arrays.asList(stack)).blockingFrame();
        return frame != null && frame.getClassName().equals("io.jasyncio.task.ThreadBody")
                && frame.getMethodName().equals("awaitTurn");
    }

    private void report(BlockedLoopReport report) {
        if (stackGoesTo == null && WarmUp.isWarmUp(report.stack())) {
            LOG.log(System.Logger.Level.DEBUG, () -> report.summary() + ": the JVM warming up (class loading, "
                    + "initialisation), not counted");
        } else if (stackGoesTo == null) {
            LOG.log(System.Logger.Level.WARNING, report::toString);
        } else {
            System.err.println("jasyncio doctor: " + report.summary() + " (the stack: " + stackGoesTo + ")");
        }
        if (listener != null) {
            try {
                listener.accept(report);
            } catch (Throwable t) {
                LOG.log(System.Logger.Level.ERROR, "watchdog listener failed", t);
            }
        }
        try {
            commitJfrEvent(report);
        } catch (LinkageError noJfrInThisRuntime) {
            // a runtime image without the jdk.jfr module: the log and the listener are enough
        }
    }

    private static void commitJfrEvent(BlockedLoopReport report) {
        if (FlightRecorder.isInitialized()) { // else no recording can want it: skip JFR's setup cost
            BlockedLoopEvent event = new BlockedLoopEvent();
            if (event.isEnabled()) {
                event.loopThread = report.loopThread();
                event.handle = report.heldBy();
                event.blockedFor = report.blockedNanos();
                StackTraceElement frame = report.blockingFrame();
                event.blockingFrame = frame != null ? frame.toString() : null;
                event.stack = report.toString();
                event.commit();
            }
        }
    }

    /** The threshold, in seconds. */
    public double thresholdSeconds() {
        return thresholdNanos / 1e9;
    }

    /**
     * Removes the observer from the loop and tells the watchdog thread to end, without waiting
     * for it (the loop must not wait on a report being written): it ends after the check in
     * progress, if any. Call it on the loop's thread or while the loop is not running (the
     * observer slot is the loop's own state).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        LockSupport.unpark(thread);
        CompositeObserver.remove(loop, this);
    }
}
