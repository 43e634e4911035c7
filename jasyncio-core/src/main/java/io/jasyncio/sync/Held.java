package io.jasyncio.sync;

/**
 * A lock or semaphore slot held by the current task, released on {@link #close()}: the
 * try-with-resources form of asyncio's {@code async with lock:}.
 *
 * <pre>{@code
 * try (Held held = lock.hold()) {
 *     ... // the lock is held here
 * }
 * }</pre>
 */
@FunctionalInterface
public interface Held extends AutoCloseable {
    /** Releases what was acquired. */
    @Override
    void close();
}
