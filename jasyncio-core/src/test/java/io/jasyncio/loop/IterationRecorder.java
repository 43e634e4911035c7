package io.jasyncio.loop;

import java.util.ArrayList;
import java.util.List;

/**
 * Records what the loop says about each iteration, through {@link LoopObserver}, and runs one
 * iteration at a time: {@link #runOneIteration} wakes the loop from inside beforeSelect with a
 * thread-safe stop, so the select returns at once whatever its timeout, and the loop stops after
 * draining that iteration's snapshot. Nothing here depends on how long anything takes.
 */
final class IterationRecorder implements LoopObserver {
    /** What one iteration reported: the select timeout (-1: block), queue sizes, timers moved, ntodo. */
    record Iteration(long timeoutNanos, int readyCount, int timerCount, int timersMoved, int ntodo) {
    }

    final List<Iteration> iterations = new ArrayList<>();
    private final EventLoop loop;
    private long timeout;
    private int readyCount;
    private int timerCount;

    IterationRecorder(EventLoop loop) {
        this.loop = loop;
        loop.setObserver(this);
    }

    /** Runs exactly one iteration of {@code loop} and returns what it reported. */
    Iteration runOneIteration() {
        int before = iterations.size();
        loop.runForever();
        if (iterations.size() != before + 1) {
            throw new AssertionError("expected one iteration, the loop ran " + (iterations.size() - before));
        }
        return iterations.getLast();
    }

    Iteration last() {
        return iterations.getLast();
    }

    @Override
    public void beforeSelect(long timeoutNanos, int readyCount, int timerCount) {
        this.timeout = timeoutNanos;
        this.readyCount = readyCount;
        this.timerCount = timerCount;
        loop.callSoonThreadsafe(loop::stop); // wakes the select at once; stop runs in this iteration's drain
    }

    @Override
    public void beforeDrain(int timersMoved, int ntodo) {
        iterations.add(new Iteration(timeout, readyCount, timerCount, timersMoved, ntodo));
    }
}
