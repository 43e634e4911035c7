package io.jasyncio.sync;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.VoidCoroutine;

import java.util.ArrayDeque;

/**
 * A mutual-exclusion lock for tasks, as asyncio's {@code Lock}: not owned by a task, not
 * reentrant, not thread-safe (use it on its loop's thread).
 *
 * <p>Fair: waiters acquire in the order they started waiting, and a task that asks while others
 * are queued queues behind them even if the lock happens to be free at that moment (it was
 * released, and the first waiter is about to take it). Cancellation-safe: a waiter cancelled
 * after it was granted the lock passes the grant on to the next waiter.
 */
public final class Lock implements Acquirable {
    private final LoopBinding binding = new LoopBinding();
    /** Futures of the tasks waiting in {@link #acquire()}, in arrival order. */
    private final ArrayDeque<Future<Void>> waiters = new ArrayDeque<>();
    private boolean locked;

    /** A lock nobody holds. */
    public Lock() {
    }

    /** Whether the lock is held. */
    public boolean locked() {
        return locked;
    }

    /**
     * Acquires the lock, waiting (suspending the calling task) while it is held or others wait.
     * Takes it at once, without yielding, when it is free and nobody waits.
     */
    @Override
    public void acquire() {
        binding.checkThread(this, "acquire");
        if (!locked && !Waiters.anyNotCancelled(waiters)) {
            locked = true;
            return;
        }
        try {
            Waiters.awaitQueued(binding.loop(this).createFuture(), waiters);
        } catch (CancelledError cancelled) {
            // We may have been granted the lock just before the cancellation landed: the lock is
            // free but nobody runs to take it, so hand the grant to the next waiter.
            if (!locked) {
                wakeUpFirst();
            }
            throw cancelled;
        }
        locked = true;
    }

    /**
     * Releases the lock and lets the first waiter (if any) take it.
     *
     * @throws IllegalStateException if the lock is not held (asyncio's RuntimeError)
     */
    @Override
    public void release() {
        binding.checkThread(this, "release");
        if (!locked) {
            throw new IllegalStateException("Lock is not acquired.");
        }
        locked = false;
        wakeUpFirst();
    }

    /** Runs {@code body} holding the lock (asyncio's {@code async with lock:}); returns its result. */
    public <T> T withLock(Coroutine<T> body) throws Exception {
        return Acquirable.holding(this, body);
    }

    /** Runs {@code body} holding the lock. */
    public void withLock(VoidCoroutine body) throws Exception {
        Acquirable.holding(this, body);
    }

    /** Grants the lock to the first waiter, unless it was granted already (its future is done). */
    private void wakeUpFirst() {
        Future<Void> first = waiters.peekFirst();
        if (first != null && !first.isDone()) {
            first.setResult(null);
        }
    }

    @Override
    public String toString() {
        return "<Lock [" + (locked ? "locked" : "unlocked") + (waiters.isEmpty() ? "" : ",waiters:" + waiters.size()) + "]>";
    }
}
