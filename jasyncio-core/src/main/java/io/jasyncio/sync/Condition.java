package io.jasyncio.sync;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.VoidCoroutine;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * A condition variable for tasks, as asyncio's {@code Condition}: a {@link Lock} plus a FIFO of
 * tasks waiting to be signalled.
 *
 * <p>Names: asyncio's {@code wait()}, {@code wait_for(predicate)}, {@code notify(n)} and
 * {@code notify_all()} are {@link #await()}, {@link #waitFor(BooleanSupplier)},
 * {@link #signal(int)} and {@link #signalAll()} here ({@code Object.wait/notify/notifyAll} are
 * final in Java; the names follow {@code java.util.concurrent.locks.Condition}).
 *
 * <p>Cancellation-safe: {@link #await()} always re-acquires the lock before it returns or throws,
 * and a waiter that was signalled but fails to return normally passes the signal on (a spurious
 * wake-up for someone else, which the condition-variable protocol allows, rather than a lost one).
 */
public final class Condition {
    private final LoopBinding binding = new LoopBinding();
    private final Lock lock;
    private final ArrayDeque<Future<Void>> waiters = new ArrayDeque<>();

    /** A condition with its own new lock. */
    public Condition() {
        this(new Lock());
    }

    /** A condition over an existing lock (several conditions may share one lock). */
    public Condition(Lock lock) {
        this.lock = Objects.requireNonNull(lock, "lock");
    }

    /** Whether the underlying lock is held. */
    public boolean locked() {
        return lock.locked();
    }

    /** Acquires the underlying lock, waiting while it is held. */
    public void acquire() {
        lock.acquire();
    }

    /** Releases the underlying lock. */
    public void release() {
        lock.release();
    }

    /** Acquires the underlying lock: {@code try (Held h = cond.hold()) {...}}. */
    public Held hold() {
        return lock.hold();
    }

    /** Runs {@code body} holding the underlying lock; returns its result. */
    public <T> T withLock(Coroutine<T> body) throws Exception {
        return lock.withLock(body);
    }

    /** Runs {@code body} holding the underlying lock. */
    public void withLock(VoidCoroutine body) throws Exception {
        lock.withLock(body);
    }

    /**
     * Releases the lock, waits until signalled, re-acquires the lock. The lock is held again
     * when this returns or throws, cancellation included.
     *
     * @throws IllegalStateException if the lock is not held (asyncio's RuntimeError)
     */
    public void await() {
        if (!locked()) {
            throw new IllegalStateException("cannot wait on un-acquired lock");
        }
        lock.release();
        try {
            try {
                Waiters.awaitQueued(binding.loop(this).createFuture(), waiters);
            } finally {
                reacquireEvenIfCancelled();
            }
        } catch (Throwable t) {
            // We may have been signalled before this failure: pass the signal on.
            Waiters.wake(waiters, 1);
            throw t;
        }
    }

    /** The lock must be held on the way out; a cancellation during re-acquisition is re-thrown after it. */
    private void reacquireEvenIfCancelled() {
        CancelledError cancelled = null;
        while (true) {
            try {
                lock.acquire();
                break;
            } catch (CancelledError e) {
                cancelled = e;
            }
        }
        if (cancelled != null) {
            throw cancelled;
        }
    }

    /** Waits until {@code predicate} holds: checks it, and after each wake-up checks it again. */
    public void waitFor(BooleanSupplier predicate) {
        while (!predicate.getAsBoolean()) {
            await();
        }
    }

    /** Wakes the first waiter (asyncio's {@code notify()}). */
    public void signal() {
        binding.checkThread(this, "signal");
        signal(1);
    }

    /**
     * Wakes up to {@code n} waiters, first come first served. A woken waiter returns from
     * {@link #await()} only once it has the lock back, which the caller still holds.
     *
     * @throws IllegalStateException if the lock is not held
     */
    public void signal(int n) {
        if (!locked()) {
            throw new IllegalStateException("cannot notify on un-acquired lock");
        }
        Waiters.wake(waiters, n);
    }

    /** Wakes every waiter (asyncio's {@code notify_all()}). */
    public void signalAll() {
        binding.checkThread(this, "signalAll");
        signal(waiters.size());
    }

    @Override
    public String toString() {
        return "<Condition [" + (locked() ? "locked" : "unlocked") + (waiters.isEmpty() ? "" : ",waiters:" + waiters.size()) + "]>";
    }
}
