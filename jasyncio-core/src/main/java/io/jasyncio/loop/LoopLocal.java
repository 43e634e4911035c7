package io.jasyncio.loop;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Per-loop state for the layers above the loop (the task registry, the default executor, ...),
 * like a {@link ThreadLocal} keyed by loop. Lets the loop know nothing of what sits above it.
 */
public final class LoopLocal<T> {
    private static final AtomicInteger NEXT_INDEX = new AtomicInteger();

    final int index = NEXT_INDEX.getAndIncrement();
    final Function<EventLoop, T> initial;

    private LoopLocal(Function<EventLoop, T> initial) {
        this.initial = initial;
    }

    public static <T> LoopLocal<T> withInitial(Function<EventLoop, T> initial) {
        return new LoopLocal<>(initial);
    }

    /** The value on {@code loop}. */
    public T get(EventLoop loop) {
        return loop.local(this);
    }
}
