package io.jasyncio.loop;

/**
 * Where a loop's time comes from, and how long the loop may sleep waiting for its next timer.
 * {@link #monotonic()} is the JDK's monotonic clock; a {@link VirtualClock} stands still and jumps
 * to the next timer whenever the loop is idle, so code that only waits for timers takes no real
 * time. The loop asks the clock for the select timeout before it polls, reads it once after, and,
 * when the poll brought nothing to do, calls {@link #idle} (where a virtual clock jumps).
 *
 * <p>Only the loop's timers and {@link EventLoop#time()} follow the clock: debug mode's slow-callback
 * timing, the watchdog and {@link LoopObserver} durations always measure real time.
 */
public interface LoopClock {

    /** The JDK's monotonic clock ({@link System#nanoTime()}): the loop sleeps until its timers are due. */
    static LoopClock monotonic() {
        return MonotonicClock.INSTANCE;
    }

    /** Now, in nanoseconds: the loop's {@link EventLoop#nanoTime()}. */
    long nanoTime();

    /**
     * The select timeout when nothing is ready, given the time to the next timer ({@code -1}: there
     * is none, so only I/O or another thread can bring work).
     */
    long selectTimeout(long nanosUntilNextTimer);

    /**
     * Called when the poll brought nothing to do (no I/O event, no thread-safe submission, nothing
     * ready), with the loop's {@code now} (this clock's {@link #nanoTime()}, just read) and the time
     * to the next timer ({@code -1}: none). A virtual clock jumps here. Returns the time after it:
     * the loop moves the timers due then, without reading the clock again.
     */
    long idle(long now, long nanosUntilNextTimer);

    /** Blocking work ({@code runInExecutor}) was submitted: its result comes back from another thread. */
    void blockingWorkStarted();

    /** That work's result reached the loop. */
    void blockingWorkEnded();
}
