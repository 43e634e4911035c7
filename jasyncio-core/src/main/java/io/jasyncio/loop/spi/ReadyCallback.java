package io.jasyncio.loop.spi;

/**
 * A callback a loop runs from its ready queue, as the backend sees it: what
 * {@link LoopContract#newReusableHandle} makes and {@link LoopContract#enqueue} queues, and what
 * an {@link IoRegistration} keeps for readiness. The loop's own handle class is its one
 * implementation: a backend queues the callbacks the loop made, never one of its own.
 */
public interface ReadyCallback {
    /** Cancels the callback: it will not run. Idempotent. */
    void cancel();

    /** Whether {@link #cancel()} was called. */
    boolean isCancelled();
}
