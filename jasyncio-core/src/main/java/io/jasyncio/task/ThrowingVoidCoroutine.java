package io.jasyncio.task;

import io.jasyncio.loop.Handle;

/**
 * A body that returns nothing and whose checked exceptions are part of its type, as
 * {@link ThrowingCoroutine} for a value: {@code run(() -> writer.drain())} throws what
 * {@code drain} declares. A {@link VoidCoroutine} is one whose {@code X} is {@code Exception}.
 *
 * @param <X> the checked exception the body may throw ({@code RuntimeException}: none)
 */
@FunctionalInterface
public interface ThrowingVoidCoroutine<X extends Exception> {
    void run() throws X;

    /** This body as a task's {@link Coroutine} returning null, named in reports after this body's own class. */
    default Coroutine<Void> asCoroutine() {
        return Coroutine.named(Handle.describeClass(getClass()), () -> {
            run();
            return null;
        });
    }
}
