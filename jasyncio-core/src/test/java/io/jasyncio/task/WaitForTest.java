package io.jasyncio.task;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.currentTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.task.VirtualTime.run;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
@EveryLoop
@EveryEngine
class WaitForTest {

    @Test
    void aTaskThatTimesOutIsCancelledAndItsCleanupAwaited() {
        List<String> trace = new ArrayList<>();
        run(() -> {
            Task<String> slow = createTask(() -> {
                try {
                    return sleep(10, "late");
                } catch (CancelledError e) {
                    sleep(0.01);
                    trace.add("cleanup done");
                    throw e;
                }
            });
            assertThrows(TimeoutException.class, () -> waitFor(slow, 0.02));
            assertTrue(slow.isCancelled(), "waitFor returned only after the task ended");
            assertEquals(0, currentTask().cancelling());
            return null;
        });
        assertEquals(List.of("cleanup done"), trace);
    }

    @Test
    void aDoneFutureIsReturnedEvenWithAZeroTimeout() {
        run(() -> {
            Future<String> done = getRunningLoop().createFuture();
            done.setResult("ready");
            assertEquals("ready", waitFor(done, 0.0));
            return null;
        });
    }

    @Test
    void cancellingTheWaiterFromOutsideIsACancellationNotATimeout() {
        run(() -> {
            Future<String> never = getRunningLoop().createFuture();
            Task<String> waiter = createTask(() -> waitFor(never, 10.0));
            sleep(0.01);
            waiter.cancel();
            assertThrows(CancelledError.class, () -> await(waiter));
            assertTrue(waiter.isCancelled());
            assertTrue(never.isCancelled());
            return null;
        });
    }
}
