package io.jasyncio.sync;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@EveryLoop
@EveryEngine
class BarrierTest {

    @Test
    void allPartiesPassTogetherWithTheirArrivalIndexAndTheBarrierIsReusable() {
        run(() -> {
            Barrier barrier = new Barrier(3);
            for (int round = 0; round < 3; round++) {
                List<Task<Integer>> ts = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    int delay = i;
                    ts.add(createTask(() -> {
                        for (int k = 0; k < delay; k++) {
                            sleep(0);
                        }
                        return barrier.await();
                    }));
                }
                for (int i = 0; i < 3; i++) {
                    assertEquals(i, await(ts.get(i)));
                }
                assertEquals(0, barrier.nWaiting());
            }
            assertFalse(barrier.isBroken());
        });
    }

    @Test
    void abortBreaksItForPresentAndFutureWaiters() {
        run(() -> {
            Barrier barrier = new Barrier(3);
            Task<Integer> a = createTask(barrier::await);
            sleep(0);
            assertEquals(1, barrier.nWaiting());
            barrier.abort();
            assertThrows(BrokenBarrierException.class, () -> await(a));
            assertTrue(barrier.isBroken());
            assertThrows(BrokenBarrierException.class, barrier::await);
        });
    }

    @Test
    void resetBreaksTheCurrentRoundOnlyAndTheBarrierRefills() {
        run(() -> {
            Barrier barrier = new Barrier(2);
            Task<Integer> a = createTask(barrier::await);
            sleep(0);
            barrier.reset();
            assertThrows(BrokenBarrierException.class, () -> await(a));
            assertFalse(barrier.isBroken());
            Task<Integer> b = createTask(barrier::await);
            Task<Integer> c = createTask(barrier::await);
            assertEquals(0, await(b));
            assertEquals(1, await(c));
        });
    }

    @Test
    void aCancelledPartyLeavesTheCountConsistent() {
        run(() -> {
            Barrier barrier = new Barrier(2);
            Task<Integer> a = createTask(barrier::await);
            sleep(0);
            assertEquals(1, barrier.nWaiting());
            a.cancel();
            assertThrows(CancelledError.class, () -> await(a));
            assertEquals(0, barrier.nWaiting());
            Task<Integer> b = createTask(barrier::await);
            Task<Integer> c = createTask(barrier::await);
            assertEquals(0, await(b));
            assertEquals(1, await(c));
        });
    }

    @Test
    void partiesMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new Barrier(0));
    }
}
