package io.jasyncio.loop;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loop's default executor, the one behind {@code runInExecutor(null, ...)} and
 * {@code toThread}: its one owner, kept per loop in a {@link LoopLocal}. The pool is created on
 * first use. By default it is sized as asyncio's, min(32, cpus + 4) named daemon platform threads,
 * started only as work arrives. {@code -Djasyncio.executor=virtual} makes it one virtual thread
 * per call instead (no pool limit: blocking I/O then costs no platform thread; CPU-bound work
 * still competes for cores). Either kind can also be set explicitly with
 * {@link EventLoop#setDefaultExecutor}.
 *
 * <p>It lives on the loop's floor, as asyncio's {@code loop._default_executor} does, because
 * {@code runInExecutor} is a loop method and the task layer's {@code Runner} shuts it down:
 * {@code io.jasyncio.exec} (which sits above the task layer) only wraps {@link #shutdown} as a
 * coroutine.
 */
public final class DefaultExecutor {
    /** The system property choosing the default executor's kind: {@code platform} or {@code virtual}. */
    public static final String KIND_PROPERTY = "jasyncio.executor";

    private static final System.Logger LOG = System.getLogger("io.jasyncio.exec");
    private static final AtomicInteger POOLS = new AtomicInteger();
    private static final LoopLocal<DefaultExecutor> PER_LOOP = LoopLocal.withInitial(loop -> new DefaultExecutor());

    private Executor executor;
    private boolean shutdownCalled;

    private DefaultExecutor() {
    }

    /** {@code loop}'s default executor (the slot: the pool itself is created on first use). */
    static DefaultExecutor of(EventLoop loop) {
        return PER_LOOP.get(loop);
    }

    /** {@code loop}'s default executor if one was created or set, else null (for observers such as the doctor). */
    public static Executor ifCreated(EventLoop loop) {
        return of(loop).executor;
    }

    /** The executor for new {@code runInExecutor(null, ...)} work, created on first use. */
    Executor forNewWork() {
        if (shutdownCalled) {
            throw new IllegalStateException("Executor shutdown has been called");
        }
        if (executor == null) {
            executor = create();
        }
        return executor;
    }

    void set(Executor replacement) {
        executor = replacement;
    }

    /** When the loop closes: stop the pool without waiting for running work, as asyncio. */
    void closeWithLoop() {
        if (executor instanceof ExecutorService service) {
            service.shutdown();
        }
    }

    /**
     * asyncio's {@code loop.shutdown_default_executor(timeout)}, minus the awaiting: refuses new
     * default-executor work from now on, then returns a future on {@code loop} that completes when
     * the pool's threads have finished (true), or, after {@code timeoutSeconds} (negative: no
     * limit), with false and a logged warning; the pool is then left to finish on its own, nothing
     * is interrupted. The joining happens on a helper thread, so the loop keeps running meanwhile.
     * Must be called on the loop's thread.
     */
    public static Future<Boolean> shutdown(EventLoop loop, double timeoutSeconds) {
        DefaultExecutor owner = of(loop);
        Future<Boolean> joined = loop.createFuture();
        owner.shutdownCalled = true;
        if (!(owner.executor instanceof ExecutorService service)) {
            joined.setResult(true); // none was created, or a plain Executor with no threads of its own to join
            return joined;
        }
        LoopClock clock = loop.clock();
        clock.blockingWorkStarted(); // the join is blocking work: a virtual clock must not skip the timeout
        joined.addDoneCallback(f -> clock.blockingWorkEnded());
        Thread.ofPlatform().daemon().name("jasyncio-executor-shutdown").start(() -> join(loop, service, joined));
        TimerHandle timer = timeoutSeconds < 0 ? null : loop.callLater(timeoutSeconds, () -> {
            if (!joined.isDone()) {
                LOG.log(System.Logger.Level.WARNING, "The executor did not finish joining its threads within "
                        + timeoutSeconds + " seconds.");
                joined.setResult(false);
            }
        });
        if (timer != null) {
            joined.addDoneCallback(f -> timer.cancel());
        }
        return joined;
    }

    /** On the helper thread: wait for the pool to drain, then tell the loop. */
    private static void join(EventLoop loop, ExecutorService service, Future<Boolean> joined) {
        Throwable failure = null;
        try {
            service.shutdown();
            while (!service.awaitTermination(1, TimeUnit.DAYS)) {
                // keep waiting: the timeout, if any, is the loop's business
            }
        } catch (Throwable t) {
            failure = t;
        }
        Throwable error = failure;
        try {
            loop.callSoonThreadsafe(() -> {
                if (joined.isDone()) {
                    return; // timed out first
                }
                if (error != null) {
                    joined.setException(error);
                } else {
                    joined.setResult(true);
                }
            });
        } catch (IllegalStateException closed) {
            // the loop closed meanwhile: nobody is waiting any more
        }
    }

    /** The kind {@link #KIND_PROPERTY} names (platform threads unless it says {@code virtual}). */
    static ExecutorService create() {
        String kind = System.getProperty(KIND_PROPERTY, "platform");
        return switch (kind) {
            case "platform" -> platformThreads();
            case "virtual" -> virtualThreads();
            default -> throw new IllegalArgumentException(
                    "-D" + KIND_PROPERTY + " must be 'platform' or 'virtual', not '" + kind + "'");
        };
    }

    /** asyncio's default: min(32, cpus + 4) daemon platform threads named {@code jasyncio-executor-P-N}. */
    public static ExecutorService platformThreads() {
        int size = Math.min(32, Runtime.getRuntime().availableProcessors() + 4);
        int pool = POOLS.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(size, size, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "jasyncio-executor-" + pool + "-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    /** One new virtual thread per call, named {@code jasyncio-virtual-P-N}. */
    public static ExecutorService virtualThreads() {
        int pool = POOLS.incrementAndGet();
        return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("jasyncio-virtual-" + pool + "-", 1).factory());
    }
}
