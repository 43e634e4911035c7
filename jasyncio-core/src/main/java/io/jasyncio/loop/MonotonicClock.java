package io.jasyncio.loop;

/** {@link LoopClock#monotonic()}: System.nanoTime, and select sleeps until the next timer is due. */
final class MonotonicClock implements LoopClock {
    static final MonotonicClock INSTANCE = new MonotonicClock();

    private MonotonicClock() {
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long selectTimeout(long nanosUntilNextTimer) {
        return nanosUntilNextTimer;
    }

    @Override
    public long idle(long now, long nanosUntilNextTimer) {
        return now; // time passed in select: the timer that woke the loop is due now
    }

    @Override
    public void blockingWorkStarted() {
    }

    @Override
    public void blockingWorkEnded() {
    }

    @Override
    public String toString() {
        return "monotonic clock";
    }
}
