package io.jasyncio.exec;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.LoopContract;
import io.jasyncio.loop.TimerHandle;
import io.jasyncio.task.Tasks;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * asyncio's {@code loop.shutdown_default_executor(timeout)}, as a coroutine: refuse new work for
 * the default executor, then wait, without blocking the loop, for the work already running.
 *
 * <p>The waiting happens on a helper thread (joining a pool is a blocking call) that resolves a
 * future on the loop when the pool has drained; the calling task simply awaits that future, so
 * other tasks and timers keep running meanwhile. Past the timeout a warning is logged and the
 * task goes on; the pool is left to finish on its own (nothing is interrupted, as asyncio).
 */
public final class DefaultExecutorShutdown {
    private static final System.Logger LOG = System.getLogger("io.jasyncio.exec");

    private DefaultExecutorShutdown() {
    }

    /**
     * Shuts the running loop's default executor down and awaits its threads, at most
     * {@code timeoutSeconds} (negative: no limit). Afterwards {@code runInExecutor(null, ...)}
     * and {@code toThread} throw.
     */
    public static void shutdown(double timeoutSeconds) {
        EventLoop loop = EventLoops.getRunningLoop();
        Executor executor = LoopContract.of(loop).beginDefaultExecutorShutdown();
        if (!(executor instanceof ExecutorService service)) {
            return; // none was created, or a plain Executor that has no threads of its own to join
        }
        Future<Boolean> joined = loop.createFuture(); // true: drained; false: timed out
        Thread.ofPlatform().daemon().name("jasyncio-executor-shutdown").start(() -> join(loop, service, joined));
        TimerHandle timer = timeoutSeconds < 0 ? null : loop.callLater(timeoutSeconds, () -> resolve(joined, false));
        loop.clock().blockingWorkStarted(); // the join is blocking work: a virtual clock must not skip the timeout
        try {
            if (!Tasks.await(joined)) {
                LOG.log(System.Logger.Level.WARNING, "The executor did not finish joining its threads within "
                        + timeoutSeconds + " seconds.");
            }
        } finally {
            loop.clock().blockingWorkEnded();
            if (timer != null) {
                timer.cancel();
            }
        }
    }

    /** On the helper thread: wait for the pool to drain, then tell the loop. */
    private static void join(EventLoop loop, ExecutorService service, Future<Boolean> joined) {
        Runnable outcome;
        try {
            service.shutdown();
            while (!service.awaitTermination(1, TimeUnit.DAYS)) {
                // keep waiting: the timeout, if any, is the loop's business
            }
            outcome = () -> resolve(joined, true);
        } catch (Throwable t) {
            outcome = () -> {
                if (!joined.isDone()) {
                    joined.setException(t);
                }
            };
        }
        try {
            loop.callSoonThreadsafe(outcome);
        } catch (IllegalStateException closed) {
            // the loop closed meanwhile: nobody is waiting any more
        }
    }

    private static void resolve(Future<Boolean> joined, boolean drained) {
        if (!joined.isDone()) {
            joined.setResult(drained);
        }
    }
}
