package io.jasyncio.debug;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.sync.Event;
import io.jasyncio.sync.Lock;
import io.jasyncio.sync.Queue;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.Callable;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.toThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
@EveryEngine
class ThreadSafetyTest {

    /** Runs {@code call} on a worker thread and returns the message of what it threw, or "no error". */
    private static String messageFromAnotherThread(Callable<?> call) {
        return toThread(() -> {
            try {
                call.call();
                return "no error";
            } catch (IllegalStateException e) {
                return e.getMessage();
            }
        });
    }

    @Test
    void loopThreadOnlyMethodsThrowAClearErrorFromAnotherThread() {
        run(() -> {
            EventLoop loop = getRunningLoop();
            String loopThread = Thread.currentThread().getName();
            String callSoon = messageFromAnotherThread(() -> loop.callSoon(() -> { }));
            assertTrue(callSoon.matches("callSoon called from thread 'jasyncio-virtual-\\d+-\\d+' but the loop runs on '"
                    + loopThread + "': use callSoonThreadsafe"), callSoon);
            assertTrue(messageFromAnotherThread(() -> loop.callLater(1, () -> { })).startsWith("callAt called from thread"));
            assertTrue(messageFromAnotherThread(() -> loop.runInExecutor(null, () -> 1)).startsWith("runInExecutor called from thread"));

            Future<String> delivered = loop.createFuture();
            assertEquals("no error", messageFromAnotherThread(() -> loop.callSoonThreadsafe(() -> delivered.setResult("via callSoonThreadsafe"))));
            assertEquals("via callSoonThreadsafe", await(delivered));
            return null;
        });
    }

    /**
     * asyncio's debug mode checks the thread of every non-thread-safe call: from another thread a
     * queue's putNowait, a future's setResult, an event's set or a lock's acquire would change loop
     * state under the loop's feet and, with nobody waiting, seem to work.
     */
    @Test
    void inDebugModeNonThreadSafeCallsFromAnotherThreadFailLoudly() {
        run(() -> {
            String loopThread = Thread.currentThread().getName();
            Queue<String> queue = new Queue<>();
            queue.putNowait("from the loop");
            String put = messageFromAnotherThread(() -> {
                queue.putNowait("from a plain thread");
                return null;
            });
            assertTrue(put.matches("Queue.putNowait called from thread 'jasyncio-virtual-\\d+-\\d+' but the loop runs on '"
                    + loopThread + "': it is not thread-safe; from another thread use loop.callSoonThreadsafe.*"), put);
            assertEquals(1, queue.qsize(), "the foreign put changed nothing");

            EventLoop loop = getRunningLoop();
            Future<String> future = loop.createFuture();
            assertTrue(messageFromAnotherThread(() -> {
                future.setResult("x");
                return null;
            }).startsWith("Future.setResult called from thread"));
            assertTrue(messageFromAnotherThread(future::cancel).startsWith("Future.cancel called from thread"));
            Task<Void> task = createTask(() -> sleep(10));
            assertTrue(messageFromAnotherThread(task::cancel).startsWith("Task.cancel called from thread"));
            task.cancel();

            Event event = new Event(); // made on the loop, never waited on
            assertTrue(messageFromAnotherThread(() -> {
                event.set();
                return null;
            }).startsWith("Event.set called from thread"));
            Lock lock = new Lock();
            assertTrue(messageFromAnotherThread(() -> {
                lock.acquire();
                return null;
            }).startsWith("Lock.acquire called from thread"));
            assertTrue(!future.isDone() && !event.isSet() && !lock.locked());
            return null;
        }, true);
    }

    /** Outside debug mode the calls are not checked (asyncio's rule, and no cost on the hot path). */
    @Test
    void withoutDebugModeTheyAreNotChecked() {
        run(() -> {
            Queue<String> queue = new Queue<>();
            queue.putNowait("from the loop");
            assertEquals("no error", messageFromAnotherThread(() -> {
                queue.putNowait("unchecked");
                return null;
            }));
            assertEquals(2, queue.qsize());
            return null;
        }, false);
    }
}
