package io.jasyncio.task;

/**
 * The body of a task that returns a value. It may throw anything: a failure completes the task
 * with that exact exception object (see {@link io.jasyncio.loop.Future} for the policy).
 *
 * <p>The calls that run a body in the caller and return its result ({@code Asyncio.run},
 * {@code timeout}, {@code waitFor}) take the wider {@link ThrowingCoroutine}, so they can declare
 * the checked exceptions a lambda throws; a {@code Coroutine} passed to them is a body that may
 * throw any {@code Exception}.
 */
@FunctionalInterface
public interface Coroutine<T> extends ThrowingCoroutine<T, Exception> {
    @Override
    T run() throws Exception;

    /** {@code body}, named {@code name} in reports: "coro=" in its task's description, a slow step's report. */
    static <T> Coroutine<T> named(String name, Coroutine<T> body) {
        return new NamedCoroutine<>(name, body);
    }
}
