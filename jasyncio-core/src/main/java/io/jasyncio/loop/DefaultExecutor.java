package io.jasyncio.loop;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The pool behind {@code runInExecutor(null, ...)}: sized as asyncio's default,
 * min(32, cpus + 4) named daemon platform threads, started only as work arrives.
 */
final class DefaultExecutor {
    private static final AtomicInteger POOLS = new AtomicInteger();

    private DefaultExecutor() {
    }

    static ThreadPoolExecutor create() {
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
}
