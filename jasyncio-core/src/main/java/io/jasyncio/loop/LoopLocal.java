package io.jasyncio.loop;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Per-loop state kept outside the loop class, like a {@link ThreadLocal} keyed by loop: the task
 * registry ({@code io.jasyncio.task}), the shared read buffer ({@code io.jasyncio.net}), the
 * default executor ({@link DefaultExecutor}). The loop stores the values and knows nothing of
 * what they are. A value is created by the key's initial function on first {@link #get} and
 * lives as long as the loop.
 */
public final class LoopLocal<T> {
    private static final AtomicInteger NEXT_INDEX = new AtomicInteger();

    final int index = NEXT_INDEX.getAndIncrement();
    final Function<EventLoop, T> initial;

    private LoopLocal(Function<EventLoop, T> initial) {
        this.initial = initial;
    }

    /** A key whose value on each loop is made by {@code initial} on first use there. */
    public static <T> LoopLocal<T> withInitial(Function<EventLoop, T> initial) {
        return new LoopLocal<>(initial);
    }

    /** The value on {@code loop}. */
    public T get(EventLoop loop) {
        return loop.local(this);
    }
}
