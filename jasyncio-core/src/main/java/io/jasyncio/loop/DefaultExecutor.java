package io.jasyncio.loop;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The pool behind {@code runInExecutor(null, ...)}, created on first use. By default it is sized
 * as asyncio's, min(32, cpus + 4) named daemon platform threads, started only as work arrives.
 * {@code -Djasyncio.executor=virtual} makes it one virtual thread per call instead (no pool
 * limit: blocking I/O then costs no platform thread; CPU-bound work still competes for cores).
 * Either kind can also be set explicitly with {@link EventLoop#setDefaultExecutor}.
 */
public final class DefaultExecutor {
    /** The system property choosing the default executor's kind: {@code platform} or {@code virtual}. */
    public static final String KIND_PROPERTY = "jasyncio.executor";

    private static final AtomicInteger POOLS = new AtomicInteger();

    private DefaultExecutor() {
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
