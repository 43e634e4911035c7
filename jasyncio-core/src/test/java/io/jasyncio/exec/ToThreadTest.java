package io.jasyncio.exec;

import io.jasyncio.context.ContextVar;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.toThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

@Timeout(30)
@EveryEngine
class ToThreadTest {
    private static final ContextVar<String> REQUEST = ContextVar.withDefault("request", "none");

    /** How late a 50 ms timer fires while the task runs {@code blockingPart}. */
    private static double timerLatenessWhile(Runnable blockingPart) {
        return run(() -> {
            EventLoop loop = getRunningLoop();
            Future<Double> fired = loop.createFuture();
            double scheduledAt = loop.time();
            loop.callLater(0.05, () -> fired.setResult(loop.time()));
            blockingPart.run();
            return await(fired) - scheduledAt - 0.05;
        });
    }

    private static void blockFor300ms() {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aTimerFiresWhileToThreadRunsTheBlockingCall() {
        // The blocking call waits for the loop's own 50 ms timer: it can only see it fire if the
        // loop stayed free meanwhile (no lateness bound, which a loaded machine would break).
        boolean firedDuringTheCall = run(() -> {
            CountDownLatch fired = new CountDownLatch(1);
            getRunningLoop().callLater(0.05, fired::countDown);
            return toThread(() -> fired.await(10, TimeUnit.SECONDS));
        });
        assertTrue(firedDuringTheCall, "the timer did not fire while toThread's call blocked: the loop was held");
    }

    @Test
    void theSameBlockingCallOnTheLoopMakesTheTimerLate() {
        double late = timerLatenessWhile(ToThreadTest::blockFor300ms);
        assertTrue(late > 0.2, "the 50 ms timer was only " + late + " s late although the loop was blocked for 0.3 s");
    }

    @Test
    void toThreadReturnsTheResultAndRunsOffTheLoopThread() {
        run(() -> {
            Thread loopThread = Thread.currentThread();
            Thread worker = toThread(Thread::currentThread);
            assertNotSame(loopThread, worker);
            assertTrue(worker.isVirtual(), "the default executor is a virtual thread per call: " + worker);
            assertTrue(worker.getName().startsWith("jasyncio-virtual-"), worker.getName());
            assertEquals(5, toThread(() -> 2 + 3));
            return null;
        });
    }

    @Test
    void toThreadRethrowsTheWorkersOwnException() {
        IllegalArgumentException thrown = new IllegalArgumentException("worker failed");
        run(() -> {
            try {
                toThread(() -> {
                    throw thrown;
                });
                fail("toThread should have thrown");
            } catch (IllegalArgumentException e) {
                assertSame(thrown, e);
            }
            return null;
        });
    }

    @Test
    void toThreadSeesTheCallersContextVarsAndItsChangesStayInTheCopy() {
        run(() -> {
            REQUEST.set("request-42");
            assertEquals("request-42", toThread(REQUEST::get));
            toThread(() -> REQUEST.set("changed by the worker"));
            assertEquals("request-42", REQUEST.get());
            return null;
        });
    }

    @Test
    void runInExecutorRunsInTheWorkersOwnContextAsAsyncioDoes() {
        run(() -> {
            REQUEST.set("request-42");
            assertEquals("none", await(getRunningLoop().runInExecutor(null, REQUEST::get)));
            return null;
        });
    }

    @Test
    void cancellingTheAwaitingTaskDropsTheResultWithoutInterruptingTheWorker() {
        run(() -> {
            EventLoop loop = getRunningLoop();
            List<Map<String, Object>> errors = new CopyOnWriteArrayList<>();
            loop.setExceptionHandler((l, context) -> errors.add(context));
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1); // the worker is still blocked when the task is cancelled
            CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
            Task<Integer> waiter = createTask(() -> toThread(() -> {
                started.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    interrupted.complete(true);
                    throw e;
                }
                interrupted.complete(false);
                return 42;
            }));
            assertTrue(toThread(() -> started.await(5, TimeUnit.SECONDS)), "the worker never started");
            waiter.cancel();
            assertThrows(CancelledError.class, () -> await(waiter));
            release.countDown();
            assertFalse(toThread(() -> interrupted.get(5, TimeUnit.SECONDS)), "the worker was interrupted");
            sleep(0.05); // the worker's delivery (callSoonThreadsafe) runs meanwhile and is dropped
            assertTrue(waiter.isCancelled());
            assertTrue(errors.isEmpty(), "delivering into the cancelled future reported: " + errors);
            return null;
        });
    }
}
