package io.jasyncio.http.server;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.TimerHandle;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.Runner;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static io.jasyncio.task.Tasks.await;

/**
 * Runs a test body as a task on a named loop, bounded in time. Unlike the core's
 * {@code NetTesting.run}, which keeps the assertions that fail in callbacks, every exception the
 * loop reports fails the test: a server that reports one (a handler failure, a transport error)
 * where none was meant is a bug here.
 */
final class HttpTesting {
    private HttpTesting() {
    }

    static <T> T run(String loopName, double seconds, Coroutine<T> body) {
        List<Throwable> reported = Collections.synchronizedList(new ArrayList<>());
        T result;
        try (Runner runner = new Runner(false, loopName)) {
            result = runner.run(() -> {
                EventLoop loop = EventLoops.getRunningLoop();
                loop.setExceptionHandler((l, context) -> {
                    if (context.get("exception") instanceof Throwable t) {
                        reported.add(t);
                    }
                    l.defaultExceptionHandler(context);
                });
                Task<T> task = Tasks.create(loop, body, "test body", null);
                TimerHandle deadline = loop.callLater(seconds, () -> task.cancel("test deadline of " + seconds + " s passed"));
                try {
                    return await(task);
                } finally {
                    deadline.cancel();
                }
            });
        }
        if (!reported.isEmpty()) {
            AssertionError failure = new AssertionError("reported to the loop's exception handler", reported.getFirst());
            reported.subList(1, reported.size()).forEach(failure::addSuppressed);
            throw failure;
        }
        return result;
    }

    /**
     * Coroutine: waits (in 5 ms steps) until {@code condition} holds; fails with {@code state}'s
     * account if it does not within {@code seconds}.
     */
    static void within(double seconds, java.util.function.BooleanSupplier condition,
                       java.util.function.Supplier<String> state) {
        double deadline = io.jasyncio.Asyncio.getRunningLoop().time() + seconds;
        while (!condition.getAsBoolean()) {
            if (io.jasyncio.Asyncio.getRunningLoop().time() > deadline) {
                throw new AssertionError("not within " + seconds + " s: " + state.get());
            }
            io.jasyncio.Asyncio.sleep(0.005);
        }
    }

    /** Coroutine: waits (in 5 ms steps, within the test's deadline) until {@code condition} holds. */
    static void until(java.util.function.BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            io.jasyncio.Asyncio.sleep(0.005);
        }
    }
}
