package io.jasyncio.task;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.InvalidStateException;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.task.VirtualTime.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
@EveryLoop
@EveryEngine
class TaskCancellationTest {

    @Test
    void cancelAfterTheAwaitedFutureCompletedStillCancelsTheTask() {
        // The result is set, the task's wake-up is queued, and cancel() comes before it runs:
        // as in asyncio, the cancellation wins and the task never sees the result.
        List<String> trace = new ArrayList<>();
        run(() -> {
            Future<String> f = getRunningLoop().createFuture();
            Task<String> t = createTask(() -> {
                try {
                    return await(f);
                } catch (CancelledError e) {
                    trace.add("cancelled at the await");
                    throw e;
                }
            });
            sleep(0);
            f.setResult("value");
            assertTrue(t.cancel());
            assertThrows(CancelledError.class, () -> await(t));
            assertTrue(t.isCancelled());
            return null;
        });
        assertEquals(List.of("cancelled at the await"), trace);
    }

    @Test
    void completingAFutureAfterItsWaiterCancelledItFailsAtTheProducer() {
        run(() -> {
            Future<String> f = getRunningLoop().createFuture();
            Task<String> t = createTask(() -> await(f));
            sleep(0);
            t.cancel();
            assertTrue(f.isCancelled(), "cancelling the task cancels the future it waits on");
            assertThrows(InvalidStateException.class, () -> f.setResult("late"));
            assertThrows(CancelledError.class, () -> await(t));
            return null;
        });
    }

    @Test
    void cancellingAFinishedTaskReturnsFalseAndChangesNothing() {
        run(() -> {
            Task<String> t = createTask(() -> "done");
            assertEquals("done", await(t));
            assertFalse(t.cancel());
            assertEquals(0, t.cancelling());
            assertEquals("done", t.result());
            return null;
        });
    }

    @Test
    void cancellingTwiceDeliversOneCancelledErrorWithTheFirstMessage() {
        List<String> trace = new ArrayList<>();
        run(() -> {
            Task<Void> t = createTask(() -> {
                try {
                    sleep(10);
                } catch (CancelledError e) {
                    trace.add("caught " + e.getMessage());
                    sleep(0.01); // a second CancelledError would land here
                    trace.add("cleanup finished");
                    throw e;
                }
            });
            sleep(0);
            assertTrue(t.cancel("first"));
            assertTrue(t.cancel("second"));
            assertEquals(2, t.cancelling());
            CancelledError e = assertThrows(CancelledError.class, () -> await(t));
            assertEquals("first", e.getMessage());
            return null;
        });
        assertEquals(List.of("caught first", "cleanup finished"), trace);
    }

    @Test
    void aTaskCancelledBeforeItsFirstStepNeverRunsItsBody() {
        List<String> trace = new ArrayList<>();
        run(() -> {
            Task<Boolean> t = createTask(() -> trace.add("ran"));
            t.cancel();
            assertThrows(CancelledError.class, () -> await(t));
            assertTrue(t.isCancelled());
            return null;
        });
        assertEquals(List.of(), trace);
    }

    @Test
    void aCancellationIsNotCaughtByCatchException() {
        List<String> trace = new ArrayList<>();
        run(() -> {
            Task<Void> t = createTask(() -> {
                try {
                    sleep(10);
                } catch (Exception e) {
                    trace.add("swallowed " + e);
                }
            });
            sleep(0);
            t.cancel();
            assertThrows(CancelledError.class, () -> await(t));
            return null;
        });
        assertEquals(List.of(), trace);
    }
}
