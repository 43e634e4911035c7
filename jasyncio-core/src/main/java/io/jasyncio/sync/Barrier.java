package io.jasyncio.sync;

/**
 * A meeting point for a fixed number of tasks, as asyncio's {@code Barrier} (3.11+): each task
 * that calls {@link #await()} waits until {@code parties} tasks have arrived, then all go on,
 * each with its arrival index. The barrier then resets itself for the next round; tasks that
 * arrive while the previous round is still leaving wait for it to drain first.
 *
 * <p>{@link #abort()} breaks it: every waiter, present and future, gets
 * {@link BrokenBarrierException}. {@link #reset()} breaks the current round only.
 * {@code await}, {@code reset} and {@code abort} must be called from a task (they take the
 * barrier's internal lock).
 */
public final class Barrier {
    private enum State { FILLING, DRAINING, RESETTING, BROKEN }

    private final Condition condition = new Condition();
    private final int parties;
    private State state = State.FILLING;
    /** Tasks inside {@link #await()}. */
    private int count;

    /** A barrier for {@code parties} tasks; throws {@link IllegalArgumentException} if it is below 1. */
    public Barrier(int parties) {
        if (parties < 1) {
            throw new IllegalArgumentException("parties must be >= 1");
        }
        this.parties = parties;
    }

    /**
     * Waits until all parties have arrived; returns this task's arrival index (0 for the first,
     * {@code parties - 1} for the one that releases the others).
     *
     * @throws BrokenBarrierException if the barrier is or becomes broken or reset while waiting
     */
    public int await() {
        try (Held held = condition.hold()) {
            blockWhileDrainingOrResetting();
            int index = count++;
            try {
                if (index + 1 == parties) {
                    state = State.DRAINING; // the last arrival releases the round
                    condition.signalAll();
                } else {
                    waitForRoundToFill();
                }
                return index;
            } finally {
                count--;
                leave();
            }
        }
    }

    private void blockWhileDrainingOrResetting() {
        condition.waitFor(() -> state != State.DRAINING && state != State.RESETTING);
        if (state == State.BROKEN) {
            throw new BrokenBarrierException("Barrier aborted");
        }
    }

    private void waitForRoundToFill() {
        condition.waitFor(() -> state != State.FILLING);
        if (state == State.BROKEN || state == State.RESETTING) {
            throw new BrokenBarrierException("Abort or reset of barrier");
        }
    }

    /** The last task to leave a drained or reset round opens the barrier for the next one. */
    private void leave() {
        if (count == 0) {
            if (state == State.RESETTING || state == State.DRAINING) {
                state = State.FILLING;
            }
            condition.signalAll();
        }
    }

    /** Returns the barrier to its empty state; tasks waiting in it get {@link BrokenBarrierException}. */
    public void reset() {
        try (Held held = condition.hold()) {
            if (count > 0) {
                state = State.RESETTING; // the waiters leave broken; the last one to leave refills
            } else {
                state = State.FILLING;
            }
            condition.signalAll();
        }
    }

    /** Breaks the barrier for good: current and future waiters get {@link BrokenBarrierException}. */
    public void abort() {
        try (Held held = condition.hold()) {
            state = State.BROKEN;
            condition.signalAll();
        }
    }

    /** How many tasks must arrive to release a round. */
    public int parties() {
        return parties;
    }

    /** Tasks waiting in the round that is filling (0 while a round drains or resets). */
    public int nWaiting() {
        return state == State.FILLING ? count : 0;
    }

    /**
     * Whether the barrier is broken (aborted, or a waiter was cancelled); waits fail until
     * {@code reset()}.
     */
    public boolean isBroken() {
        return state == State.BROKEN;
    }

    @Override
    public String toString() {
        return "<Barrier [" + state.name().toLowerCase() + (state == State.FILLING ? ",waiters:" + count + "/" + parties : "") + "]>";
    }
}
