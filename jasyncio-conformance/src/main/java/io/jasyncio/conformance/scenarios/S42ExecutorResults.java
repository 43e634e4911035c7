package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.gather;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.toThread;

/** Scenario 42: runInExecutor and toThread deliver results and errors from worker threads to the awaiting task. */
public final class S42ExecutorResults extends Scenario {
    @Override
    public String name() {
        return "42_executor_results";
    }

    private static int blockingAdd(int a, int b) throws InterruptedException {
        Thread.sleep(50);
        return a + b;
    }

    private static String greet(String name, String punctuation) {
        return "hello " + name + punctuation;
    }

    private static Object boom() {
        throw new ValueError("worker failed");
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            EventLoop loop = getRunningLoop();
            Thread loopThread = Thread.currentThread();

            print("run_in_executor:", await(loop.runInExecutor(null, () -> blockingAdd(2, 3))));

            boolean ok = await(loop.runInExecutor(null, () -> Thread.currentThread() != loopThread));
            print("ran off the loop thread:", b(ok));

            print("to_thread:", toThread(() -> greet("world", "!")));

            try {
                await(loop.runInExecutor(null, S42ExecutorResults::boom));
            } catch (ValueError e) {
                print("executor error: ValueError:", e.getMessage());
            }
            try {
                toThread(S42ExecutorResults::boom);
            } catch (ValueError e) {
                print("to_thread error: ValueError:", e.getMessage());
            }

            List<String> order = Collections.synchronizedList(new ArrayList<>());
            ExecutorService pool = Executors.newFixedThreadPool(1);
            try {
                List<String> res = await(gather(
                        loop.runInExecutor(pool, () -> record(order, "first")),
                        loop.runInExecutor(pool, () -> record(order, "second"))));
                print("single worker order:", String.join(", ", order));
                print("results:", String.join(", ", res));
            } finally {
                pool.shutdown();
            }

            double start = loop.time();
            List<Future<Object>> sleeps = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                sleeps.add(loop.runInExecutor(null, () -> {
                    Thread.sleep(200);
                    return null;
                }));
            }
            await(gather(sleeps));
            print("four 0.2 s calls overlapped:", b(loop.time() - start < 0.7));
            return null;
        });
    }

    private static String record(List<String> order, String tag) throws InterruptedException {
        Thread.sleep(20);
        order.add(tag);
        return tag + "-done";
    }
}
