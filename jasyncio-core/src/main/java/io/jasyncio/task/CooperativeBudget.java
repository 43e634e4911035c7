package io.jasyncio.task;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.LoopLocal;

/**
 * A loop's optional cooperative budget, Tokio's fix for starvation: after a set number of
 * consecutive awaits that did not suspend (awaits of futures already done), a task of that loop
 * yields once, as if it had called {@code sleep(0)}, so a task whose awaits always hit a cache
 * cannot hold the loop for its whole run.
 *
 * <p>Off by default: asyncio does not do this, and with it on an await of a done future may
 * yield (and so may also be where a cancellation lands). Each loop has its own
 * ({@link #of(EventLoop)}); set it on the loop's thread or before the loop runs. While no loop
 * has one, it costs the await fast path one static field read.
 */
public final class CooperativeBudget {
    private static final LoopLocal<CooperativeBudget> OF_LOOP = LoopLocal.withInitial(loop -> new CooperativeBudget());
    /**
     * How many loops have a budget set (a loop collected with one still counts): while 0, an await
     * of a done future reads this and nothing else. Plain, as the budget itself: set it before the
     * loop runs or on its thread.
     */
    static int loopsWithABudget;

    /** Awaits without suspending after which a task yields; 0 = off. Plain field: the loop's thread reads it. */
    private int awaitsPerYield;

    private CooperativeBudget() {
    }

    /** {@code loop}'s budget (off until set). */
    public static CooperativeBudget of(EventLoop loop) {
        return OF_LOOP.get(loop);
    }

    /** Tasks of this loop yield after every {@code awaits} consecutive awaits that did not suspend (0 turns it off). */
    public void set(int awaits) {
        if (awaits < 0) {
            throw new IllegalArgumentException("the budget must be >= 0 awaits (0 = off), not " + awaits);
        }
        synchronized (CooperativeBudget.class) {
            if ((awaitsPerYield == 0) != (awaits == 0)) {
                loopsWithABudget += awaits == 0 ? -1 : 1;
            }
            awaitsPerYield = awaits;
        }
    }

    /** Back to asyncio's behaviour on this loop: an await of a done future never yields. */
    public void disable() {
        set(0);
    }

    /** This loop's budget, 0 when off. */
    public int get() {
        return awaitsPerYield;
    }

    /**
     * Called on the await fast path when some loop has a budget: counts the await against the
     * current task's loop's budget, and yields when it is spent.
     */
    static void spendOne() {
        Task<?> task = Task.current();
        if (task == null) {
            return;
        }
        int budget = of(task.getLoop()).awaitsPerYield;
        if (budget != 0 && task.spendAwaitWithoutSuspending() >= budget) {
            task.yieldOnce(); // the next step starts the count again
        }
    }
}
