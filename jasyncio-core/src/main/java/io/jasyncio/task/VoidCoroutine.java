package io.jasyncio.task;

/**
 * The body of a task that returns nothing; its task's result is null. As {@link Coroutine}, a
 * {@link ThrowingVoidCoroutine} that may throw any {@code Exception}.
 */
@FunctionalInterface
public interface VoidCoroutine extends ThrowingVoidCoroutine<Exception> {
    @Override
    void run() throws Exception;
}
