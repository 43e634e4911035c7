package io.jasyncio.sync;

import java.util.ArrayDeque;
import java.util.Collections;

/** A {@link Queue} that hands out the most recently added item first (asyncio's {@code LifoQueue}). */
public final class LifoQueue<T> extends Queue<T> {
    /** An unbounded LIFO queue. */
    public LifoQueue() {
        this(0);
    }

    /** Bounded by {@code maxsize} ({@code <= 0}: unbounded). */
    public LifoQueue(int maxsize) {
        super(maxsize, Collections.asLifoQueue(new ArrayDeque<>()));
    }
}
