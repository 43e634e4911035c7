package io.jasyncio.sync;

import java.util.Comparator;

/**
 * A {@link Queue} that hands out the smallest item first (asyncio's {@code PriorityQueue}), by
 * natural order or by a comparator. Like asyncio's heap, equal items come out in no particular
 * order: put (priority, sequence, value) records when order among equals matters.
 */
public final class PriorityQueue<T> extends Queue<T> {
    /** Unbounded, natural order (items must be {@link Comparable}). */
    public PriorityQueue() {
        this(0);
    }

    /** Bounded by {@code maxsize} ({@code <= 0}: unbounded), natural order. */
    public PriorityQueue(int maxsize) {
        this(maxsize, null);
    }

    /** Bounded by {@code maxsize}, ordered by {@code comparator} (null: natural order). */
    public PriorityQueue(int maxsize, Comparator<? super T> comparator) {
        super(maxsize, new java.util.PriorityQueue<>(comparator));
    }
}
