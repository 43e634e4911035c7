package io.jasyncio.debug;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Handle;
import io.jasyncio.loop.LoopObserver;
import io.jasyncio.loop.TimerHandle;

/**
 * Where a loop's time goes, counted by an observer: iterations, time blocked in select versus
 * time running callbacks, the ready-queue depth each iteration drains, the timer heap, slow
 * callbacks, and loop lag: how late each timer ran after its deadline (the number a blocked loop
 * drives up first).
 *
 * <pre>{@code
 * LoopStats stats = LoopStats.install(loop);
 * ... run ...
 * System.out.println(stats.snapshot());
 * }</pre>
 *
 * Counting happens on the loop thread; take {@link #snapshot()} there (from another thread it
 * may be slightly stale, never torn into nonsense: each field is a single long or int).
 */
public final class LoopStats implements LoopObserver {
    private final EventLoop loop;
    private final LagHistogram lag = new LagHistogram();

    private long iterations;
    private long selectNanos;
    private long callbackNanos;
    private long handlesRun;
    private long slowCallbacks;
    private long timersFired;
    private int readyLast;
    private int readyMax;
    private int timersInHeap;
    private int cancelledTimersInHeap;

    /** Stats for {@code loop}, not yet installed (see {@link #install(EventLoop)}). */
    public LoopStats(EventLoop loop) {
        this.loop = loop;
    }

    /** New stats installed on {@code loop}, next to the observers already there. */
    public static LoopStats install(EventLoop loop) {
        LoopStats stats = new LoopStats(loop);
        CompositeObserver.add(loop, stats);
        return stats;
    }

    @Override
    public void beforeSelect(long timeoutNanos, int readyCount, int timerCount) {
        iterations++;
        timersInHeap = timerCount;
        cancelledTimersInHeap = loop.cancelledTimerCount();
    }

    @Override
    public void afterSelect(int ioEvents, long nanos) {
        selectNanos += nanos;
    }

    @Override
    public void beforeDrain(int timersMoved, int ntodo) {
        timersFired += timersMoved;
        readyLast = ntodo;
        if (ntodo > readyMax) {
            readyMax = ntodo;
        }
    }

    @Override
    public void handleStarting(Handle handle, long startNanos) {
        if (handle instanceof TimerHandle timer) {
            lag.record(startNanos - timer.whenNanos());
        }
    }

    @Override
    public void handleFinished(Handle handle, long nanos) {
        handlesRun++;
        callbackNanos += nanos;
        if (nanos >= loop.getSlowCallbackDuration() * 1e9) {
            slowCallbacks++;
        }
    }

    /** The counts so far. */
    public Snapshot snapshot() {
        return new Snapshot(iterations, selectNanos, callbackNanos, handlesRun, slowCallbacks, readyLast, readyMax,
                timersInHeap, cancelledTimersInHeap, timersFired, lag.count(), lag.percentileNanos(50),
                lag.percentileNanos(90), lag.percentileNanos(99), lag.maxNanos());
    }

    /**
     * The counts at one moment. Times are nanoseconds; {@code lagP50Nanos}... are how late timers
     * ran after their deadlines (bucketed: within 12.5%), {@code lagMaxNanos} exactly.
     */
    public record Snapshot(long iterations, long selectNanos, long callbackNanos, long handlesRun,
                           long slowCallbacks, int readyLast, int readyMax, int timersInHeap,
                           int cancelledTimersInHeap, long timersFired, long lagSamples, long lagP50Nanos,
                           long lagP90Nanos, long lagP99Nanos, long lagMaxNanos) {
        @Override
        public String toString() {
            return String.format("iterations=%d select=%.3fs callbacks=%.3fs handles=%d slow=%d ready(last/max)=%d/%d "
                            + "timers(heap/cancelled/fired)=%d/%d/%d lag(p50/p90/p99/max)=%.3f/%.3f/%.3f/%.3f ms",
                    iterations, selectNanos / 1e9, callbackNanos / 1e9, handlesRun, slowCallbacks, readyLast, readyMax,
                    timersInHeap, cancelledTimersInHeap, timersFired, lagP50Nanos / 1e6, lagP90Nanos / 1e6,
                    lagP99Nanos / 1e6, lagMaxNanos / 1e6);
        }
    }
}
