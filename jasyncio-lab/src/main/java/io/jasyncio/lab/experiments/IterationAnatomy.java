package io.jasyncio.lab.experiments;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Handle;
import io.jasyncio.loop.LoopObserver;
import io.jasyncio.loop.TimerHandle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Experiment 1: a small program traced iteration by iteration through a {@link LoopObserver}:
 * the select timeout the loop chose, the I/O events, the timers moved, the ntodo snapshot and the
 * callbacks that ran.
 */
final class IterationAnatomy implements Experiment {
    private static final long IDLE_WAKE_AFTER_MS = 200;

    @Override
    public String name() {
        return "anatomy";
    }

    @Override
    public String title() {
        return "One iteration, dissected";
    }

    @Override
    public String claim() {
        return "Each iteration selects with timeout 0 when callbacks are ready, exactly the time to the "
                + "nearest timer otherwise, and no timeout at all when idle; callbacks added during a drain "
                + "run in the next iteration (the ntodo snapshot).";
    }

    /** What the observer saw in one iteration. */
    static final class Iteration {
        final int index;
        final long timeoutNanos;
        final int readyCount;
        final int timerCount;
        /** Time to our nearest live timer as seen when the loop chose the timeout; -1 when none. */
        final long expectedTimerNanos;
        int ioEvents;
        long selectNanos;
        int timersMoved;
        int ntodo;
        final List<String> ran = new ArrayList<>();

        Iteration(int index, long timeoutNanos, int readyCount, int timerCount, long expectedTimerNanos) {
            this.index = index;
            this.timeoutNanos = timeoutNanos;
            this.readyCount = readyCount;
            this.timerCount = timerCount;
            this.expectedTimerNanos = expectedTimerNanos;
        }

        String timeoutText() {
            if (timeoutNanos < 0) {
                return "none (idle: block)";
            }
            if (timeoutNanos == 0) {
                return "0 (callbacks ready)";
            }
            return String.format("%.1f ms (next timer)", timeoutNanos / 1e6);
        }
    }

    @Override
    public void run(Trial trial) throws Exception {
        warmUp();
        trial.progress("running a small program: two callbacks, a pipe, two timers, then an idle wait");
        List<Iteration> trace = new ArrayList<>();
        List<TimerHandle> liveTimers = new ArrayList<>();
        CountDownLatch wentIdle = new CountDownLatch(1);
        EventLoop loop = EventLoops.newEventLoop();
        Pipe pipe = Pipe.open();
        Thread waker = null;
        try {
            pipe.source().configureBlocking(false);
            loop.setObserver(new LoopObserver() {
                Iteration current;

                @Override
                public void beforeSelect(long timeoutNanos, int readyCount, int timerCount) {
                    long now = loop.nanoTime();
                    long nearest = -1;
                    for (TimerHandle t : liveTimers) {
                        long d = t.whenNanos() - now;
                        if (nearest < 0 || d < nearest) {
                            nearest = Math.max(0, d);
                        }
                    }
                    current = new Iteration(trace.size() + 1, timeoutNanos, readyCount, timerCount, nearest);
                    trace.add(current);
                    if (timeoutNanos < 0) {
                        wentIdle.countDown();
                    }
                }

                @Override
                public void afterSelect(int ioEvents, long selectNanos) {
                    current.ioEvents = ioEvents;
                    current.selectNanos = selectNanos;
                }

                @Override
                public void beforeDrain(int timersMoved, int ntodo) {
                    current.timersMoved = timersMoved;
                    current.ntodo = ntodo;
                }

                @Override
                public void handleStarting(Handle handle, long startNanos) {
                    current.ran.add(NamedCallback.nameOf(handle)); // before it runs: it may cancel itself
                    liveTimers.remove(handle);
                }
            });

            ByteBuffer scratch = ByteBuffer.allocate(64);
            loop.addReader(pipe.source(), new NamedCallback("pipe reader: reads the byte", () -> {
                scratch.clear();
                read(pipe.source(), scratch);
                loop.removeReader(pipe.source());
            }));
            Runnable b = new NamedCallback("b (added by a during the drain)", () -> { });
            loop.callSoon(new NamedCallback("a: writes a byte into the pipe, callSoon(b)", () -> {
                write(pipe.sink(), ByteBuffer.wrap(new byte[] {42}));
                loop.callSoon(b);
            }));
            liveTimers.add(loop.callLater(0.150, new NamedCallback("timer +150 ms", () -> { })));
            liveTimers.add(loop.callLater(0.300, new NamedCallback("timer +300 ms (last thing to do)", () -> { })));

            // The idle wait ends only because another thread calls in: the loop has nothing else.
            waker = Thread.ofPlatform().name("lab-waker").start(() -> {
                try {
                    if (wentIdle.await(10, TimeUnit.SECONDS)) {
                        Thread.sleep(IDLE_WAKE_AFTER_MS);
                    }
                } catch (InterruptedException e) {
                    return;
                }
                loop.callSoonThreadsafe(new NamedCallback("from another thread: callSoonThreadsafe(stop)", loop::stop));
            });
            loop.runForever();
        } finally {
            if (waker != null) {
                waker.join(10_000);
            }
            loop.close();
            pipe.source().close();
            pipe.sink().close();
        }

        printTrace(trial, trace);
        judge(trial, trace);
    }

    /** A few untraced iterations with a pipe first, so class loading does not show up as time in select. */
    private static void warmUp() throws IOException {
        EventLoop loop = EventLoops.newEventLoop();
        Pipe pipe = Pipe.open();
        try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
            loop.setObserver(new LoopObserver() { });
            loop.addReader(source, () -> loop.removeReader(source));
            loop.callSoon(() -> loop.callSoon(loop::stop));
            loop.runForever();
        } finally {
            loop.close();
        }
    }

    private static void printTrace(Trial trial, List<Iteration> trace) {
        trial.report("%-4s %5s %6s  %-22s %9s %3s %5s %5s  %s", "iter", "ready", "timers", "select timeout",
                "in select", "io", "moved", "ntodo", "ran (in order)");
        for (Iteration it : trace) {
            trial.report("%4d %5d %6d  %-22s %6.1f ms %3d %5d %5d  %s", it.index, it.readyCount, it.timerCount,
                    it.timeoutText(), it.selectNanos / 1e6, it.ioEvents, it.timersMoved, it.ntodo,
                    String.join("; ", it.ran));
        }
    }

    private static void judge(Trial trial, List<Iteration> trace) {
        int withReady = 0;
        int readyButWaited = 0;
        int timerOnly = 0;
        double worstTimerErrorMs = 0;
        boolean timerBelowExpected = false;
        int idle = 0;
        double shortestIdleSleepMs = Double.MAX_VALUE;
        List<Double> timeoutsMs = new ArrayList<>();
        for (Iteration it : trace) {
            timeoutsMs.add(it.timeoutNanos < 0 ? null : it.timeoutNanos / 1e6); // null: no timeout (block until woken)
            if (it.readyCount > 0) {
                withReady++;
                if (it.timeoutNanos != 0) {
                    readyButWaited++;
                }
            } else if (it.expectedTimerNanos >= 0) {
                timerOnly++;
                // The loop read its clock just before the observer did: its timeout can only be a
                // little longer than what the observer computes, never shorter.
                double errorMs = (it.timeoutNanos - it.expectedTimerNanos) / 1e6;
                worstTimerErrorMs = Math.max(worstTimerErrorMs, Math.abs(errorMs));
                timerBelowExpected |= errorMs < -1;
            } else {
                idle++;
                if (it.timeoutNanos < 0) {
                    shortestIdleSleepMs = Math.min(shortestIdleSleepMs, it.selectNanos / 1e6);
                } else {
                    shortestIdleSleepMs = -1; // an idle iteration that did not block
                }
            }
        }
        trial.measure("iterations", trace.size());
        trial.measure("selectTimeoutsMs", timeoutsMs);
        trial.measure("iterationsWithReadyCallbacks", withReady);
        trial.measure("iterationsWaitingForATimer", timerOnly);
        trial.measure("worstTimeoutErrorMs", worstTimerErrorMs);
        trial.measure("idleIterations", idle);
        // null, not a sentinel, when no idle iteration blocked
        trial.measure("idleSleepMs", idle > 0 && shortestIdleSleepMs >= 0 ? shortestIdleSleepMs : null);

        trial.check(withReady > 0 && readyButWaited == 0, "timeout is 0 when callbacks are ready",
                "%d iteration(s) with ready callbacks, %d of them waited", withReady, readyButWaited);
        trial.check(timerOnly >= 2 && !timerBelowExpected && worstTimerErrorMs < 20,
                "otherwise the timeout is the time to the nearest timer",
                "%d iteration(s) waiting for a timer, largest difference %.3f ms", timerOnly, worstTimerErrorMs);
        trial.check(idle >= 1 && shortestIdleSleepMs >= IDLE_WAKE_AFTER_MS * 0.75,
                "with nothing to do the loop blocks with no timeout until another thread calls in",
                "%d idle iteration(s), blocked %.0f ms (woken after ~%d ms)", idle,
                idle > 0 ? shortestIdleSleepMs : 0, IDLE_WAKE_AFTER_MS);

        int aAt = iterationRunning(trace, "a:");
        int bAt = iterationRunning(trace, "b ");
        trial.measure("iterationOfA", aAt > 0 ? aAt : null); // null: it never ran
        trial.measure("iterationOfB", bAt > 0 ? bAt : null);
        trial.check(aAt > 0 && bAt == aAt + 1, "a callback added during the drain runs in the next iteration",
                "a ran in iteration %d, b (scheduled by a) in iteration %d", aAt, bAt);
        int readerAt = iterationRunning(trace, "pipe reader");
        boolean readerAfterEvent = readerAt > 0 && trace.get(readerAt - 1).ioEvents > 0;
        trial.check(readerAfterEvent, "readiness seen by select becomes a callback in the same iteration",
                "the pipe reader ran in iteration %d, whose select reported %d event(s)", readerAt,
                readerAt > 0 ? trace.get(readerAt - 1).ioEvents : 0);
    }

    private static int iterationRunning(List<Iteration> trace, String namePrefix) {
        for (Iteration it : trace) {
            for (String r : it.ran) {
                if (r.startsWith(namePrefix)) {
                    return it.index;
                }
            }
        }
        return -1;
    }

    private static void read(Pipe.SourceChannel source, ByteBuffer into) {
        try {
            source.read(into);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Pipe.SinkChannel sink, ByteBuffer from) {
        try {
            sink.write(from);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
