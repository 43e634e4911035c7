package io.jasyncio.loop.spi;

import io.jasyncio.context.Context;

/**
 * The loop as its backend (and a layer asking for the backend's offers) sees it: a backend
 * receives it when its loop opens it ({@link EventLoopProvider#openBackend}) and queues callbacks
 * on it later. It names only this package's types, the JDK's and contexts: the loop implements
 * it, it knows no loop type. Not for application code: these methods bypass the checks the
 * public API makes for users.
 */
public interface LoopContract {

    /**
     * A callback to queue again and again with {@link #enqueue} (a completion's callback, a
     * task's step): one allocation for its life instead of one per run. It runs in {@code context}.
     */
    ReadyCallback newReusableHandle(Runnable callback, Context context);

    /**
     * Queues a callback this loop made ({@link #newReusableHandle}), as callSoon queues a new one.
     * The caller guarantees it is not queued already: a callback is one queue entry. Called only
     * on the loop's thread.
     */
    void enqueue(ReadyCallback callback);

    /** {@link Context#copyCurrent()}, cheaper on the loop's thread: what a new task runs in. */
    Context copyCurrentContext();

    /** The calling thread's context as an opaque snapshot, for a callback to run in later. */
    Object contextSnapshot();

    /** What this loop's backend offers as a {@code type} ({@link LoopBackend#feature}), or null. */
    <T> T backendFeature(Class<T> type);

    /** The name of the provider this loop's backend came from: {@code "nio"}, {@code "epoll"}, ... */
    String implementationName();

    /**
     * {@code loop} as a loop contract, or a clear error naming what is missing: an event loop
     * that does not implement the contract cannot run futures or tasks.
     */
    static LoopContract of(Object loop) {
        if (loop instanceof LoopContract contract) {
            return contract;
        }
        throw new IllegalArgumentException("the loop " + loop + " (" + (loop == null ? "null" : loop.getClass().getName())
                + ") does not implement io.jasyncio.loop.spi.LoopContract: futures and tasks need it "
                + "(make loops with EventLoops.newEventLoop; a new I/O backend plugs in as an EventLoopProvider)");
    }
}
