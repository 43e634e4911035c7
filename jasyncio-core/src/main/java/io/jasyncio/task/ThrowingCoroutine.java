package io.jasyncio.task;

import io.jasyncio.loop.Handle;

/**
 * A body that returns a value and whose checked exceptions are part of its type: what
 * {@code Asyncio.run}, {@code timeout}, {@code waitFor} and {@code Runner.run} take, so that they
 * declare what the body throws. Java infers {@code X} from a lambda's body:
 * {@code run(() -> openConnection(host, port))} throws {@code IOException}, catchable by type;
 * a body that throws no checked exception makes {@code X} a {@code RuntimeException}, and the
 * call needs no {@code throws} clause. A {@link Coroutine} is one whose {@code X} is
 * {@code Exception}.
 *
 * @param <T> the body's result
 * @param <X> the checked exception the body may throw ({@code RuntimeException}: none)
 */
@FunctionalInterface
public interface ThrowingCoroutine<T, X extends Exception> {
    T run() throws X;

    /** This body as a task's {@link Coroutine}, named in reports after this body's own class. */
    @SuppressWarnings("unchecked") // a Coroutine that is this ThrowingCoroutine<T, X> returns the same T
    default Coroutine<T> asCoroutine() {
        if (this instanceof Coroutine<?> coroutine) {
            return (Coroutine<T>) coroutine;
        }
        return Coroutine.named(Handle.describeClass(getClass()), this::run);
    }
}
