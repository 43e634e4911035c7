package io.jasyncio.exec;

import io.jasyncio.debug.LogCapture;
import io.jasyncio.loop.DefaultExecutor;
import io.jasyncio.context.ContextVar;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.shutdownDefaultExecutor;
import static io.jasyncio.Asyncio.toCpu;
import static io.jasyncio.Asyncio.toThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
@EveryEngine
class DefaultExecutorTest {

    @Test
    void shutdownWaitsForRunningWorkThenRefusesNewWork() {
        run(() -> {
            EventLoop loop = getRunningLoop();
            Future<String> running = loop.runInExecutor(null, () -> {
                Thread.sleep(100);
                return "finished";
            });
            shutdownDefaultExecutor(10);
            assertTrue(running.isDone(), "the worker's result arrives before the shutdown's own wake-up");
            assertEquals("finished", await(running));
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> toThread(() -> 1));
            assertEquals("Executor shutdown has been called", refused.getMessage());
            return null;
        });
    }

    @Test
    void shutdownDoesNotBlockTheLoopAndGivesUpAfterItsTimeoutWithAWarning() {
        try (LogCapture log = new LogCapture("io.jasyncio.exec")) {
            CountDownLatch release = new CountDownLatch(1);
            run(() -> {
                EventLoop loop = getRunningLoop();
                loop.runInExecutor(null, () -> release.await(10, TimeUnit.SECONDS));
                boolean[] timerRan = {false};
                loop.callLater(0.01, () -> timerRan[0] = true);
                double start = loop.time();
                shutdownDefaultExecutor(0.1);
                double took = loop.time() - start;
                assertTrue(timerRan[0], "the loop was blocked while the shutdown waited");
                assertTrue(took >= 0.09 && took < 5, "shutdown returned after " + took + " s");
                release.countDown();
                return null;
            });
            assertEquals(1, log.containing("did not finish joining its threads within 0.1 seconds").size(), log.messages().toString());
        }
    }

    @Test
    void shutdownWithoutADefaultExecutorIsANoOp() {
        run(() -> {
            shutdownDefaultExecutor();
            assertThrows(IllegalStateException.class, () -> toThread(() -> 1));
            return null;
        });
    }

    @Test
    void theDefaultExecutorIsAVirtualThreadPerCall() {
        run(() -> {
            Thread first = toThread(Thread::currentThread);
            Thread second = toThread(Thread::currentThread);
            assertTrue(first.isVirtual(), first.toString());
            assertTrue(first.getName().startsWith("jasyncio-virtual-"), first.getName());
            assertNotSame(first, second, "one new virtual thread per call");
            assertTrue(await(getRunningLoop().runInExecutor(null, () -> Thread.currentThread().isVirtual())),
                    "runInExecutor(null, ...) follows the default");
            return null;
        });
    }

    @Test
    void blockingCallsBeyondAsynciosPoolSizeRunAtOnceOnTheDefault() {
        // 40 calls that each wait for all 40 to have started: asyncio's pool (min(32, cpus + 4))
        // would run at most 32 and the latch would never open; a virtual thread per call runs all.
        int calls = 40;
        run(() -> {
            CountDownLatch allStarted = new CountDownLatch(calls);
            AtomicBoolean gaveUp = new AtomicBoolean(); // a failing run ends in 2 s, not a queue of 2 s waits
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                results.add(getRunningLoop().runInExecutor(null, () -> {
                    allStarted.countDown();
                    boolean all = !gaveUp.get() && allStarted.await(2, TimeUnit.SECONDS);
                    if (!all) {
                        gaveUp.set(true);
                    }
                    return all;
                }));
            }
            for (Future<Boolean> result : results) {
                assertTrue(await(result), "a call did not see all " + calls + " running at once");
            }
            return null;
        });
    }

    @Test
    void asynciosSizedPoolIsKeptByName() {
        run(() -> {
            getRunningLoop().setDefaultExecutor(DefaultExecutor.platformThreads());
            Thread worker = toThread(Thread::currentThread);
            assertFalse(worker.isVirtual());
            assertTrue(worker.getName().startsWith("jasyncio-executor-"), worker.getName());
            ThreadPoolExecutor pool = (ThreadPoolExecutor) DefaultExecutor.ifCreated(getRunningLoop());
            assertEquals(Math.min(32, Runtime.getRuntime().availableProcessors() + 4), pool.getMaximumPoolSize());
            return null;
        });
    }

    @Test
    void theDefaultExecutorKindIsChosenByASystemProperty() {
        String previous = System.getProperty(DefaultExecutor.KIND_PROPERTY);
        System.setProperty(DefaultExecutor.KIND_PROPERTY, "platform");
        try {
            assertEquals("jasyncio-executor-", run(() -> toThread(() -> Thread.currentThread().getName()))
                    .replaceFirst("\\d+-\\d+$", ""));
            System.setProperty(DefaultExecutor.KIND_PROPERTY, "virtual");
            assertTrue(run(() -> toThread(() -> Thread.currentThread().isVirtual())));
            System.setProperty(DefaultExecutor.KIND_PROPERTY, "sized");
            IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                    () -> run(() -> toThread(() -> 1)));
            assertTrue(unknown.getMessage().contains("'platform' or 'virtual'"), unknown.getMessage());
        } finally {
            if (previous == null) {
                System.clearProperty(DefaultExecutor.KIND_PROPERTY);
            } else {
                System.setProperty(DefaultExecutor.KIND_PROPERTY, previous);
            }
        }
        assertTrue(run(() -> toThread(() -> Thread.currentThread().isVirtual())), "virtual without the property");
    }

    @Test
    void toCpuRunsOnAPoolSizedToTheCoresInTheCallersContext() {
        ContextVar<String> request = ContextVar.withDefault("request", "none");
        run(() -> {
            request.set("request-7");
            Thread worker = toCpu(Thread::currentThread);
            assertFalse(worker.isVirtual(), "CPU-bound work must not hold a virtual thread's carrier");
            assertTrue(worker.getName().startsWith("jasyncio-cpu-"), worker.getName());
            assertEquals("request-7", toCpu(request::get));
            ThreadPoolExecutor pool = (ThreadPoolExecutor) DefaultExecutor.forCpuWork(getRunningLoop());
            assertEquals(Runtime.getRuntime().availableProcessors(), pool.getMaximumPoolSize());
            assertEquals(Runtime.getRuntime().availableProcessors(), pool.getCorePoolSize());
            return null;
        });
    }

    @Test
    void shutdownJoinsTheCpuExecutorTooAndThenRefusesIt() {
        run(() -> {
            Future<String> running = getRunningLoop().runInExecutor(DefaultExecutor.forCpuWork(getRunningLoop()), () -> {
                Thread.sleep(100);
                return "finished";
            });
            shutdownDefaultExecutor(10);
            assertTrue(running.isDone(), "the CPU executor's work was not joined");
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> toCpu(() -> 1));
            assertEquals("Executor shutdown has been called", refused.getMessage());
            return null;
        });
    }

    @Test
    void closingTheLoopShutsBothExecutorsDownWithoutWaiting() {
        ExecutorService[] pools = new ExecutorService[2];
        CountDownLatch release = new CountDownLatch(1);
        EventLoop loop = EventLoops.newEventLoop();
        try {
            io.jasyncio.Asyncio.runUntilComplete(loop, () -> {
                toThread(() -> 1);
                toCpu(() -> 1);
                loop.runInExecutor(null, () -> release.await(10, TimeUnit.SECONDS)); // still running at close
                pools[0] = (ExecutorService) DefaultExecutor.ifCreated(loop);
                pools[1] = (ExecutorService) DefaultExecutor.forCpuWork(loop);
                return null;
            });
        } finally {
            loop.close();
        }
        try {
            assertTrue(pools[0].isShutdown(), "the default executor was left running");
            assertTrue(pools[1].isShutdown(), "the CPU executor was left running");
            assertFalse(pools[0].isTerminated(), "close waited for running work");
        } finally {
            release.countDown();
        }
    }
}
