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
class SemaphoreTest {

    @Test
    void neverMoreInsideThanTheValueAndWaitersEnterInOrder() {
        List<String> entered = new ArrayList<>();
        int[] inside = {0, 0}; // current, peak
        run(() -> {
            Semaphore sem = new Semaphore(2);
            List<Task<Void>> ws = new ArrayList<>();
            for (int i = 1; i <= 6; i++) {
                String name = "w" + i;
                ws.add(createTask(() -> sem.withPermit(() -> {
                    entered.add(name);
                    inside[1] = Math.max(inside[1], ++inside[0]);
                    sleep(0);
                    sleep(0);
                    inside[0]--;
                })));
            }
            for (Task<Void> w : ws) {
                await(w);
            }
            assertEquals(2, sem.value());
            assertFalse(sem.locked());
        });
        assertEquals(List.of("w1", "w2", "w3", "w4", "w5", "w6"), entered);
        assertEquals(2, inside[1]);
    }

    @Test
    void aNewcomerQueuesBehindWaitersEvenWhenASlotIsFree() {
        List<String> order = new ArrayList<>();
        run(() -> {
            Semaphore sem = new Semaphore(1);
            sem.acquire();
            Task<Void> waiter = createTask(() -> sem.withPermit(() -> { order.add("waiter"); }));
            sleep(0);
            sem.release(); // reserved for the waiter
            assertTrue(sem.locked(), "the free slot is reserved for the waiter");
            sem.acquire();  // so we queue
            order.add("main");
            sem.release();
            await(waiter);
        });
        assertEquals(List.of("waiter", "main"), order);
    }

    @Test
    void aWaiterCancelledAfterItsSlotWasReservedGivesItBack() {
        run(() -> {
            Semaphore sem = new Semaphore(0);
            Task<Void> a = createTask(sem::acquire);
            Task<String> b = createTask(() -> {
                sem.acquire();
                return "b in";
            });
            sleep(0);
            sem.release(); // reserved for a
            a.cancel();    // before a runs
            assertThrows(CancelledError.class, () -> await(a));
            assertEquals("b in", await(b));
            assertEquals(0, sem.value());
            sem.release();
            assertEquals(1, sem.value());
            assertFalse(sem.locked());
        });
    }

    @Test
    void aCancelledWaiterIsSkipped() {
        run(() -> {
            Semaphore sem = new Semaphore(0);
            Task<Void> a = createTask(sem::acquire);
            Task<Void> b = createTask(sem::acquire);
            sleep(0);
            a.cancel();
            sleep(0);
            sem.release();
            await(b);
            assertTrue(a.isCancelled());
            assertEquals(0, sem.value());
        });
    }

    @Test
    void boundedSemaphoreRefusesExtraReleasesAndValuesMustNotBeNegative() {
        run(() -> {
            BoundedSemaphore bs = new BoundedSemaphore(1);
            try (Held held = bs.hold()) {
                assertTrue(bs.locked());
            }
            assertThrows(IllegalStateException.class, bs::release);
            Semaphore plain = new Semaphore(1);
            plain.release();
            assertEquals(2, plain.value());
        });
        assertThrows(IllegalArgumentException.class, () -> new Semaphore(-1));
    }
}
