package io.jasyncio.loop;

import io.jasyncio.loop.spi.LoopContract;

import java.util.Map;

/**
 * The loop as its futures and tasks need it: the user's API, the contract its backend sees, and
 * the hooks that name {@link Future}, which the SPI cannot name (it sits below this package). The
 * library's one loop class implements it; a future holds its loop as one.
 */
interface FutureLoop extends EventLoop, LoopContract {

    /**
     * Queues a task as its own ready-queue entry, with no handle: the loop runs its step through
     * {@link Future#runAsStep}. The caller guarantees it is not queued already (a task is either
     * ready or waiting, never both).
     */
    void enqueueStep(Future<?> task);

    /** This loop's failed futures whose exception nobody retrieved yet; closing the loop reports them. */
    UnretrievedExceptions unretrievedExceptions();

    /** Reports an exception nobody retrieved (called by a cleaner, from any thread). */
    void reportUnretrieved(Map<String, Object> context);

    /** {@code loop} as one futures can run on, or the contract's clear error naming what is missing. */
    static FutureLoop of(EventLoop loop) {
        if (loop instanceof FutureLoop futureLoop) {
            return futureLoop;
        }
        LoopContract.of(loop); // throws for a loop without the contract, with the sentence users see
        throw new IllegalArgumentException("the loop " + loop + " (" + loop.getClass().getName()
                + ") was not made by EventLoops.newEventLoop: futures and tasks need it");
    }
}
