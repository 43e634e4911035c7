package io.jasyncio.exec;

import io.jasyncio.loop.DefaultExecutor;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.task.Tasks;

/**
 * asyncio's {@code loop.shutdown_default_executor(timeout)}, as a coroutine: refuse new work for
 * the default executor, then wait, without blocking the loop, for the work already running.
 *
 * <p>The joining is {@link DefaultExecutor#shutdown}'s (a helper thread resolves a future on the
 * loop); the calling task simply awaits it, so other tasks and timers keep running meanwhile.
 * Past the timeout a warning is logged and the task goes on; the pool is left to finish on its
 * own (nothing is interrupted, as asyncio).
 */
public final class DefaultExecutorShutdown {
    private DefaultExecutorShutdown() {
    }

    /**
     * Shuts the running loop's default executor down and awaits its threads, at most
     * {@code timeoutSeconds} (negative: no limit). Afterwards {@code runInExecutor(null, ...)}
     * and {@code toThread} throw.
     */
    public static void shutdown(double timeoutSeconds) {
        Tasks.await(DefaultExecutor.shutdown(EventLoops.getRunningLoop(), timeoutSeconds));
    }
}
