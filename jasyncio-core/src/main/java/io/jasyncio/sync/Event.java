package io.jasyncio.sync;

import io.jasyncio.loop.Future;

import java.util.ArrayDeque;

/**
 * A flag tasks can wait for, as asyncio's {@code Event}. {@link #set()} wakes every waiter (in
 * the order they started waiting, each through its future's callSoon, never inline); waiting on
 * a set event returns at once without yielding.
 *
 * <p>asyncio's {@code wait()} is {@link #await()} here: Java's {@code Object.wait()} is final.
 */
public final class Event {
    private final LoopBinding binding = new LoopBinding();
    private final ArrayDeque<Future<Void>> waiters = new ArrayDeque<>();
    private boolean value;

    /** An event whose flag is not set. */
    public Event() {
    }

    /** Whether the flag is set. */
    public boolean isSet() {
        return value;
    }

    /** Sets the flag and wakes every waiter. A waiter woken here wakes even if the flag is cleared again before it runs. */
    public void set() {
        binding.checkThread(this, "set");
        if (!value) {
            value = true;
            Waiters.wake(waiters, waiters.size());
        }
    }

    /** Clears the flag: later waiters wait for the next {@link #set()}. */
    public void clear() {
        binding.checkThread(this, "clear");
        value = false;
    }

    /** Returns at once if the flag is set; otherwise suspends the calling task until it is. */
    public void await() {
        if (value) {
            return;
        }
        Waiters.awaitQueued(binding.loop(this).createFuture(), waiters);
    }

    @Override
    public String toString() {
        return "<Event [" + (value ? "set" : "unset") + (waiters.isEmpty() ? "" : ",waiters:" + waiters.size()) + "]>";
    }
}
