package io.jasyncio.task;

import io.jasyncio.loop.VirtualClock;

/**
 * Test helper: {@code Asyncio.run} on a loop whose clock is a {@link VirtualClock}, for tests that
 * only wait for timers (jasyncio-junit's {@code @AsyncTest(virtualTime = true)} cannot be used
 * here: it depends on this module).
 */
public final class VirtualTime {
    private VirtualTime() {
    }

    /** Runs {@code main} as the main task of a fresh loop (the JVM's loop under test) on a virtual clock. */
    public static <T, X extends Exception> T run(ThrowingCoroutine<T, X> main) throws X {
        try (Runner runner = new Runner()) {
            runner.getLoop().setClock(new VirtualClock());
            return runner.run(main);
        }
    }

    /** As {@link #run(ThrowingCoroutine)}, for a body without a result. */
    public static <X extends Exception> void run(ThrowingVoidCoroutine<X> main) throws X {
        run(() -> {
            main.run();
            return null;
        });
    }
}
