package io.jasyncio.loop;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loop's two valves for work that must not run on the loop, and their one owner, kept per loop
 * in a {@link LoopLocal}; each is created on first use.
 *
 * <ul>
 *   <li>The default executor, behind {@code runInExecutor(null, ...)} and {@code toThread}, for
 *       blocking I/O (JDBC, a blocking HTTP call, file reads). By default one new virtual thread
 *       per call ({@code -Djasyncio.executor=virtual}, {@link #virtualThreads()}): a call that
 *       blocks in I/O parks its virtual thread and frees the carrier, so the JDK's carriers (one per
 *       core) bound the parallelism and nothing queues behind a pool size.
 *       {@code -Djasyncio.executor=platform} ({@link #platformThreads()}) selects asyncio's own
 *       sizing instead, min(32, cpus + 4) daemon platform threads, started as work arrives; calls
 *       beyond that wait in its queue. Either can also be set with {@link EventLoop#setDefaultExecutor}.</li>
 *   <li>The CPU executor ({@link #forCpuWork}, behind {@code Asyncio.toCpu}), for CPU-bound work (an
 *       RS256 verify, a bcrypt hash, compression): {@link #cpuThreads()}, as many daemon platform
 *       threads as the JVM has processors, the rest queued. Running more CPU-bound calls at once
 *       than there are cores only slices the same cores thinner (and, on virtual threads, would
 *       hold every carrier, so blocking calls and other virtual threads would wait).</li>
 * </ul>
 *
 * <p>Both follow asyncio's default executor: closing the loop shuts them down without waiting
 * for running work, and {@link #shutdown} refuses new work for both and joins both.
 *
 * <p>It lives on the loop's floor, as asyncio's {@code loop._default_executor} does, because
 * {@code runInExecutor} is a loop method and the task layer's {@code Runner} shuts it down:
 * {@code io.jasyncio.exec} (which sits above the task layer) only wraps {@link #shutdown} as a
 * coroutine.
 */
public final class DefaultExecutor {
    /**
     * The system property choosing the default executor's kind: {@code virtual} (the default: one
     * virtual thread per call) or {@code platform} (asyncio's pool of min(32, cpus + 4) threads).
     */
    public static final String KIND_PROPERTY = "jasyncio.executor";

    private static final System.Logger LOG = System.getLogger("io.jasyncio.exec");
    private static final AtomicInteger POOLS = new AtomicInteger();
    private static final LoopLocal<DefaultExecutor> PER_LOOP = LoopLocal.withInitial(loop -> new DefaultExecutor());

    private Executor executor;
    private ExecutorService cpu;
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

    /**
     * {@code loop}'s CPU executor for new work, created on first use: {@link #cpuThreads()}.
     * Must be called on the loop's thread; throws {@link IllegalStateException} after {@link #shutdown}.
     */
    public static Executor forCpuWork(EventLoop loop) {
        DefaultExecutor owner = of(loop);
        if (owner.shutdownCalled) {
            throw new IllegalStateException("Executor shutdown has been called");
        }
        if (owner.cpu == null) {
            owner.cpu = cpuThreads();
        }
        return owner.cpu;
    }

    void set(Executor replacement) {
        executor = replacement;
    }

    /** When the loop closes: stop the pool without waiting for running work, as asyncio. */
    void closeWithLoop() {
        for (ExecutorService service : services()) {
            service.shutdown();
        }
    }

    /** The executors this owner can shut down and join: the default one if it is a service, and the CPU one. */
    private List<ExecutorService> services() {
        List<ExecutorService> services = new ArrayList<>(2);
        if (executor instanceof ExecutorService service) {
            services.add(service);
        }
        if (cpu != null) {
            services.add(cpu);
        }
        return services;
    }

    /**
     * asyncio's {@code loop.shutdown_default_executor(timeout)}, minus the awaiting: refuses new
     * default-executor and CPU-executor work from now on, then returns a future on {@code loop}
     * that completes when their threads have finished (true), or, after {@code timeoutSeconds} (negative: no
     * limit), with false and a logged warning; the pool is then left to finish on its own, nothing
     * is interrupted. The joining happens on a helper thread, so the loop keeps running meanwhile.
     * Must be called on the loop's thread.
     */
    public static Future<Boolean> shutdown(EventLoop loop, double timeoutSeconds) {
        DefaultExecutor owner = of(loop);
        Future<Boolean> joined = loop.createFuture();
        owner.shutdownCalled = true;
        List<ExecutorService> services = owner.services();
        if (services.isEmpty()) {
            joined.setResult(true); // none was created, or a plain Executor with no threads of its own to join
            return joined;
        }
        LoopClock clock = loop.clock();
        clock.blockingWorkStarted(); // the join is blocking work: a virtual clock must not skip the timeout
        joined.addDoneCallback(f -> clock.blockingWorkEnded());
        Thread.ofPlatform().daemon().name("jasyncio-executor-shutdown").start(() -> join(loop, services, joined));
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

    /** On the helper thread: wait for the pools to drain, then tell the loop. */
    private static void join(EventLoop loop, List<ExecutorService> services, Future<Boolean> joined) {
        Throwable failure = null;
        try {
            for (ExecutorService service : services) {
                service.shutdown();
            }
            for (ExecutorService service : services) {
                while (!service.awaitTermination(1, TimeUnit.DAYS)) {
                    // keep waiting: the timeout, if any, is the loop's business
                }
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

    /** The kind {@link #KIND_PROPERTY} names (virtual threads unless it says {@code platform}). */
    static ExecutorService create() {
        String kind = System.getProperty(KIND_PROPERTY, "virtual");
        return switch (kind) {
            case "platform" -> platformThreads();
            case "virtual" -> virtualThreads();
            default -> throw new IllegalArgumentException(
                    "-D" + KIND_PROPERTY + " must be 'platform' or 'virtual', not '" + kind + "'");
        };
    }

    /**
     * asyncio's default executor: min(32, cpus + 4) daemon platform threads named
     * {@code jasyncio-executor-P-N}, started as work arrives; further calls wait in its queue.
     */
    public static ExecutorService platformThreads() {
        return sizedPool(Math.min(32, Runtime.getRuntime().availableProcessors() + 4), "jasyncio-executor-");
    }

    /**
     * The valve for CPU-bound work: as many daemon platform threads as the JVM has processors,
     * named {@code jasyncio-cpu-P-N}, started as work arrives; further calls wait in its queue.
     */
    public static ExecutorService cpuThreads() {
        return sizedPool(Runtime.getRuntime().availableProcessors(), "jasyncio-cpu-");
    }

    private static ExecutorService sizedPool(int size, String prefix) {
        int pool = POOLS.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(size, size, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, prefix + pool + "-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    /** One new virtual thread per call, named {@code jasyncio-virtual-P-N}: the default executor's default. */
    public static ExecutorService virtualThreads() {
        int pool = POOLS.incrementAndGet();
        return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("jasyncio-virtual-" + pool + "-", 1).factory());
    }
}
