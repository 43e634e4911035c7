package io.jasyncio.task;

/**
 * An optional cooperative budget, Tokio's fix for starvation: after a set number of consecutive
 * awaits that did not suspend (awaits of futures already done), the task yields once, as if it
 * had called {@code sleep(0)}, so a task whose awaits always hit a cache cannot hold the loop
 * for its whole run.
 *
 * <p>Off by default: asyncio does not do this, and with it on an await of a done future may
 * yield (and so may also be where a cancellation lands). The setting is global, for every loop
 * in the JVM; set it before starting loops. When off, it costs the await fast path one static
 * field read.
 */
public final class CooperativeBudget {
    /** Awaits without suspending after which a task yields; 0 = off. Plain field: set before use. */
    static int awaitsPerYield;

    private CooperativeBudget() {
    }

    /** Yield after every {@code awaits} consecutive awaits that did not suspend (0 turns it off). */
    public static void set(int awaits) {
        if (awaits < 0) {
            throw new IllegalArgumentException("the budget must be >= 0 awaits (0 = off), not " + awaits);
        }
        awaitsPerYield = awaits;
    }

    /** Back to asyncio's behaviour: an await of a done future never yields. */
    public static void disable() {
        awaitsPerYield = 0;
    }

    /** The current budget, 0 when off. */
    public static int get() {
        return awaitsPerYield;
    }

    /** Called on the await fast path when a budget is set: counts the await, yields when it is spent. */
    static void spendOne(int budget) {
        Task<?> task = Task.current();
        if (task != null && ++task.awaitsWithoutSuspending >= budget) {
            task.yieldOnce(); // the next step starts the count again
        }
    }
}
