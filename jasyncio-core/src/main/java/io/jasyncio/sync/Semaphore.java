package io.jasyncio.sync;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.VoidCoroutine;

import java.util.ArrayDeque;

/**
 * A counter of free slots, as asyncio's {@code Semaphore}: {@link #acquire()} takes a slot,
 * waiting while there is none; {@link #release()} gives one back.
 *
 * <p>Fair: while tasks wait, a newcomer queues behind them even if a slot is free. A release
 * reserves its slot for the first waiter at once (the count drops when the waiter is woken, not
 * when it runs), so nobody can overtake it. Cancellation-safe: a waiter cancelled after a slot
 * was reserved for it gives the slot back and wakes the next one.
 */
public class Semaphore implements Acquirable {
    private final LoopBinding binding = new LoopBinding();
    private final ArrayDeque<Future<Void>> waiters = new ArrayDeque<>();
    int value;

    /** A semaphore with one slot. */
    public Semaphore() {
        this(1);
    }

    /** A semaphore with {@code value} slots; throws {@link IllegalArgumentException} if negative (asyncio's ValueError). */
    public Semaphore(int value) {
        if (value < 0) {
            throw new IllegalArgumentException("Semaphore initial value must be >= 0");
        }
        this.value = value;
    }

    /** Whether {@link #acquire()} would wait: no free slot, or tasks already waiting. */
    public boolean locked() {
        return value == 0 || Waiters.anyNotCancelled(waiters);
    }

    /** Takes a slot, waiting for one (behind earlier waiters) if needed. No yield when a slot is free. */
    @Override
    public void acquire() {
        binding.checkThread(this, "acquire");
        if (!locked()) {
            value--;
            return;
        }
        Future<Void> waiter = binding.loop(this).createFuture();
        try {
            Waiters.awaitQueued(waiter, waiters);
        } catch (CancelledError cancelled) {
            if (waiter.isDone() && !waiter.isCancelled()) {
                value++; // a slot was reserved for us, but we are not taking it
            }
            throw cancelled;
        } finally {
            // Slots may be free while newcomers queued behind us (FIFO): wake as many as fit.
            while (value > 0 && wakeUpNext()) {
                // keep waking
            }
        }
    }

    /** Gives a slot back, reserving it for the first waiter if there is one. */
    @Override
    public void release() {
        binding.checkThread(this, "release");
        value++;
        wakeUpNext();
    }

    /** Runs {@code body} holding a slot (asyncio's {@code async with sem:}); returns its result. */
    public <T> T withPermit(Coroutine<T> body) throws Exception {
        return Acquirable.holding(this, body);
    }

    /** Runs {@code body} holding a slot. */
    public void withPermit(VoidCoroutine body) throws Exception {
        Acquirable.holding(this, body);
    }

    /** Free slots (not counting those reserved for woken waiters). */
    public int value() {
        return value;
    }

    /** Reserves a slot for the first waiter not yet woken; false if there is none. */
    private boolean wakeUpNext() {
        if (Waiters.wake(waiters, 1) == 0) {
            return false;
        }
        value--;
        return true;
    }

    @Override
    public String toString() {
        return "<" + getClass().getSimpleName() + " [" + (locked() ? "locked" : "unlocked,value:" + value)
                + (waiters.isEmpty() ? "" : ",waiters:" + waiters.size()) + "]>";
    }
}
