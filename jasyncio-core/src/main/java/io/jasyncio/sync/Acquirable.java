package io.jasyncio.sync;

import io.jasyncio.task.Coroutine;
import io.jasyncio.task.VoidCoroutine;

/**
 * Something taken with {@link #acquire()} and given back with {@link #release()} (a lock, a
 * semaphore slot), and the scaffolding of asyncio's {@code async with} over that pair, written once.
 */
interface Acquirable {
    void acquire();

    void release();

    /** Acquires and returns a handle that releases: {@code try (Held h = x.hold()) {...}}. */
    default Held hold() {
        acquire();
        return this::release;
    }

    /** Runs {@code body} between {@code acquire()} and {@code release()}; returns its result. */
    static <T> T holding(Acquirable held, Coroutine<T> body) throws Exception {
        held.acquire();
        try {
            return body.run();
        } finally {
            held.release();
        }
    }

    /** Runs {@code body} between {@code acquire()} and {@code release()}. */
    static void holding(Acquirable held, VoidCoroutine body) throws Exception {
        held.acquire();
        try {
            body.run();
        } finally {
            held.release();
        }
    }
}
