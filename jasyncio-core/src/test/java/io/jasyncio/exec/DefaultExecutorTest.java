package io.jasyncio.exec;

import io.jasyncio.debug.LogCapture;
import io.jasyncio.loop.DefaultExecutor;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.shutdownDefaultExecutor;
import static io.jasyncio.Asyncio.toThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
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
    void aVirtualThreadDefaultExecutorRunsEachCallOnAVirtualThread() {
        run(() -> {
            getRunningLoop().setDefaultExecutor(DefaultExecutor.virtualThreads());
            Thread worker = toThread(Thread::currentThread);
            assertTrue(worker.isVirtual());
            assertTrue(worker.getName().startsWith("jasyncio-virtual-"), worker.getName());
            return null;
        });
    }

    @Test
    void theDefaultExecutorKindIsChosenByASystemProperty() {
        String previous = System.getProperty(DefaultExecutor.KIND_PROPERTY);
        System.setProperty(DefaultExecutor.KIND_PROPERTY, "virtual");
        try {
            assertTrue(run(() -> toThread(() -> Thread.currentThread().isVirtual())));
        } finally {
            if (previous == null) {
                System.clearProperty(DefaultExecutor.KIND_PROPERTY);
            } else {
                System.setProperty(DefaultExecutor.KIND_PROPERTY, previous);
            }
        }
        assertFalse(run(() -> toThread(() -> Thread.currentThread().isVirtual())));
    }
}
