package io.jasyncio.loop.spi;

import io.jasyncio.context.Context;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.Handle;
import io.jasyncio.loop.UnretrievedExceptions;

import java.util.Map;

/**
 * The loop contract: what futures and tasks need from a loop beyond {@link EventLoop}'s
 * user-facing API, and what the layers above ask of its backend. They hold a loop through this
 * interface and never cast to an implementation class; the library's one loop class implements it,
 * whatever {@link LoopBackend} an {@link EventLoopProvider} gives it. Not for application code:
 * these methods bypass the checks the public API makes for users.
 */
public interface LoopContract extends EventLoop {

    /**
     * A handle to queue again and again with {@link #enqueue} (a task's step): one allocation per
     * task instead of one per step. It runs in {@code context}.
     */
    Handle newReusableHandle(Runnable callback, Context context);

    /**
     * Queues an existing handle, as callSoon queues a new one. The caller guarantees it is not
     * queued already: a handle is one queue entry (a task is either ready or waiting, never both).
     */
    void enqueue(Handle handle);

    /**
     * Queues a task as its own ready-queue entry, with no handle: the loop runs its step through
     * {@link Future#runAsStep}. The caller guarantees it is not queued already (a task is either
     * ready or waiting, never both).
     */
    void enqueueStep(Future<?> task);

    /** {@link Context#copyCurrent()}, cheaper on the loop's thread: what a new task runs in. */
    Context copyCurrentContext();

    /** The calling thread's context as an opaque snapshot, for a callback to run in later. */
    Object contextSnapshot();

    /** Reports an exception nobody retrieved (called by a cleaner, from any thread). */
    void reportUnretrieved(Map<String, Object> context);

    /** This loop's failed futures whose exception nobody retrieved yet; closing the loop reports them. */
    UnretrievedExceptions unretrievedExceptions();

    /** What this loop's backend offers as a {@code type} ({@link LoopBackend#feature}), or null. */
    <T> T backendFeature(Class<T> type);

    /** The name of the provider this loop's backend came from: {@code "nio"}, {@code "epoll"}, ... */
    String implementationName();

    /**
     * {@code loop} as a loop contract, or a clear error naming what is missing: an
     * {@link EventLoop} that does not implement the contract cannot run futures or tasks.
     */
    static LoopContract of(EventLoop loop) {
        if (loop instanceof LoopContract contract) {
            return contract;
        }
        throw new IllegalArgumentException("the loop " + loop + " (" + (loop == null ? "null" : loop.getClass().getName())
                + ") does not implement io.jasyncio.loop.spi.LoopContract: futures and tasks need it "
                + "(make loops with EventLoops.newEventLoop; a new I/O backend plugs in as an EventLoopProvider)");
    }
}
