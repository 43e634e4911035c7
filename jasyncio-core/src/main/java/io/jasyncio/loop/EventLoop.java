package io.jasyncio.loop;

import io.jasyncio.context.Context;

import java.nio.channels.SelectableChannel;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;

/**
 * An asyncio event loop: one thread running a cycle around a ready queue of callbacks, a poller
 * watching channels, and a timer heap. Every method but {@link #callSoonThreadsafe},
 * {@link #stop()} (from the loop thread or via callSoonThreadsafe) and the read-only getters
 * must be called on the loop's thread.
 *
 * <p>Tasks and coroutines live a layer above the loop, so {@code loop.create_task(coro)} and
 * {@code loop.run_until_complete(coro)} are {@code Asyncio.createTask(loop, body)} and
 * {@code Asyncio.runUntilComplete(loop, body)}; both work on a loop that is not running yet.
 *
 * <p>Names follow one convention: a setting is a {@code getX}/{@code setX} pair (asyncio's
 * {@code get_debug}/{@code set_debug}), a state is {@code isX}, and a reading of the clock or
 * of the loop's structures is a plain noun ({@link #time()}, {@link #readyCount()}, {@link #thread()}).
 */
public interface EventLoop extends AutoCloseable {

    // ---- scheduling -------------------------------------------------------------------------

    /** Appends {@code callback} to the ready queue (FIFO); it runs in a copy of the current context. */
    Handle callSoon(Runnable callback);

    /** As {@link #callSoon(Runnable)}, running in {@code context} itself (changes persist there). */
    Handle callSoon(Runnable callback, Context context);

    /** Runs {@code callback} once, {@code delaySeconds} from now. */
    TimerHandle callLater(double delaySeconds, Runnable callback);

    default TimerHandle callLater(Duration delay, Runnable callback) {
        return callAtNanos(nanoTime() + delay.toNanos(), callback);
    }

    /** Runs {@code callback} once at loop time {@code when} (seconds, {@link #time()}'s clock). */
    TimerHandle callAt(double when, Runnable callback);

    /** Runs {@code callback} once at loop time {@code whenNanos} ({@link #nanoTime()}'s clock). */
    TimerHandle callAtNanos(long whenNanos, Runnable callback);

    /** The only way in from another thread: queue {@code callback} and wake the loop. */
    Handle callSoonThreadsafe(Runnable callback);

    /** The loop's monotonic clock, in seconds. */
    double time();

    /** The loop's monotonic clock, in nanoseconds. */
    long nanoTime();

    /** The clock {@link #time()}, {@link #nanoTime()} and the timers follow ({@link LoopClock#monotonic()} by default). */
    LoopClock clock();

    /**
     * Replaces the clock (e.g. with a {@link VirtualClock} in a test). Only before the loop runs
     * or schedules a timer; on the loop's thread.
     */
    void setClock(LoopClock clock);

    // ---- running ----------------------------------------------------------------------------

    /** Runs iterations until {@link #stop()}. */
    void runForever();

    /** Runs until {@code future} is done, then returns its result (or throws its exception). */
    <T> T runUntilComplete(Future<T> future);

    /** Stops after the iteration in progress (its snapshot still drains, as asyncio). */
    void stop();

    boolean isRunning();

    boolean isClosed();

    /** Closes the loop: drops pending callbacks, releases the poller. Not while running. */
    @Override
    void close();

    /** A new pending future bound to this loop. */
    <T> Future<T> createFuture();

    // ---- I/O --------------------------------------------------------------------------------

    /** Calls {@code callback} whenever {@code channel} is readable (or acceptable). Replaces any previous reader. */
    void addReader(SelectableChannel channel, Runnable callback);

    /** Stops watching {@code channel} for reads; returns whether a reader was registered. */
    boolean removeReader(SelectableChannel channel);

    /** Calls {@code callback} whenever {@code channel} is writable (or its connect completed). */
    void addWriter(SelectableChannel channel, Runnable callback);

    /** Stops watching {@code channel} for writes; returns whether a writer was registered. */
    boolean removeWriter(SelectableChannel channel);

    // ---- signals ----------------------------------------------------------------------------

    /**
     * Runs {@code callback} on this loop's thread whenever the process receives {@code signal}
     * (asyncio's {@code add_signal_handler}); replaces this loop's previous handler for it. One
     * loop at a time may handle a signal: another open loop's handler makes this throw
     * {@link IllegalStateException}; a signal the JVM keeps for itself throws
     * {@link UnsupportedOperationException}. See {@link SignalHandlers}.
     */
    default void addSignalHandler(Signal signal, Runnable callback) {
        SignalHandlers.add(this, signal, callback);
    }

    /** Removes this loop's handler for {@code signal} (the JVM's own comes back); whether there was one. */
    default boolean removeSignalHandler(Signal signal) {
        return SignalHandlers.remove(this, signal);
    }

    // ---- blocking work ----------------------------------------------------------------------

    /**
     * Runs {@code fn} on {@code executor} (null: the default executor) and returns a future that
     * completes on this loop with its result.
     */
    <T> Future<T> runInExecutor(Executor executor, Callable<T> fn);

    /** Replaces the default executor used by {@code runInExecutor(null, ...)}. */
    void setDefaultExecutor(Executor executor);

    // ---- errors -----------------------------------------------------------------------------

    /** Installs the handler for errors with no caller; null restores the default. */
    void setExceptionHandler(ExceptionHandler handler);

    /** The installed handler, or null when the default is in use. */
    ExceptionHandler getExceptionHandler();

    /** Reports an error: to the installed handler, or the default one. Never throws. */
    void callExceptionHandler(Map<String, Object> context);

    /** The default handler: logs the context through {@link System.Logger}. */
    void defaultExceptionHandler(Map<String, Object> context);

    // ---- debugging and observation ------------------------------------------------------------

    void setDebug(boolean enabled);

    boolean getDebug();

    /** Handles running longer than this are reported in debug mode (default 0.1 s). */
    double getSlowCallbackDuration();

    void setSlowCallbackDuration(double seconds);

    /** Installs an observer of the loop's phases (null removes it); see {@link LoopObserver}. */
    void setObserver(LoopObserver observer);

    LoopObserver getObserver();

    /** Callbacks waiting in the ready queue. */
    int readyCount();

    /** Timers in the heap, cancelled ones included until purged. */
    int scheduledTimerCount();

    /** Cancelled timers still in the heap. */
    int cancelledTimerCount();

    /** Timers ever scheduled on this loop ({@code callLater}/{@code callAt}): a running total for observers. */
    long timersScheduledTotal();

    /** Timers ever cancelled while still in the heap: a running total for observers. */
    long timersCancelledTotal();

    /** The thread running the loop, or null when it is not running. */
    Thread thread();

    /** A value stored on this loop for {@code key} (created on first use); see {@link LoopLocal}. */
    <T> T local(LoopLocal<T> key);
}
