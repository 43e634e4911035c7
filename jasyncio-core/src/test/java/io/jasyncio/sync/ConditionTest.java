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
import static io.jasyncio.task.VirtualTime.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@EveryLoop
@EveryEngine
class ConditionTest {

    @Test
    void signalWakesWaitersOneByOneInFifoOrder() {
        List<String> order = new ArrayList<>();
        run(() -> {
            Condition cond = new Condition();
            List<Task<Void>> ws = new ArrayList<>();
            for (String n : List.of("a", "b", "c")) {
                ws.add(createTask(() -> cond.withLock(() -> {
                    cond.await();
                    assertTrue(cond.locked(), "await returns holding the lock");
                    order.add(n);
                })));
            }
            sleep(0);
            for (int i = 0; i < 2; i++) {
                cond.withLock(() -> cond.signal());
                sleep(0.01);
            }
            assertEquals(List.of("a", "b"), order);
            cond.withLock(cond::signalAll);
            for (Task<Void> w : ws) {
                await(w);
            }
        });
        assertEquals(List.of("a", "b", "c"), order);
    }

    @Test
    void awaitAndSignalWithoutTheLockFail() {
        run(() -> {
            Condition cond = new Condition();
            assertThrows(IllegalStateException.class, cond::await);
            assertThrows(IllegalStateException.class, cond::signal);
        });
    }

    @Test
    void aCancelledWaiterStillHoldsTheLockWhenItLeaves() {
        run(() -> {
            Condition cond = new Condition();
            boolean[] heldOnCancel = {false};
            Task<Void> w = createTask(() -> {
                cond.acquire();
                try {
                    cond.await();
                } catch (CancelledError e) {
                    heldOnCancel[0] = cond.locked();
                    throw e;
                } finally {
                    cond.release();
                }
            });
            sleep(0);
            cond.acquire(); // the waiter must re-acquire behind us
            w.cancel();
            sleep(0.01);
            assertFalse(w.isDone(), "the cancelled waiter waits for the lock before it leaves");
            cond.release();
            assertThrows(CancelledError.class, () -> await(w));
            assertTrue(heldOnCancel[0]);
            assertFalse(cond.locked());
        });
    }

    @Test
    void aSignalledWaiterThatIsCancelledPassesTheSignalOn() {
        run(() -> {
            Condition cond = new Condition();
            Task<Void> a = createTask(() -> cond.withLock(cond::await));
            Task<String> b = createTask(() -> cond.withLock(() -> {
                cond.await();
                return "b woke";
            }));
            sleep(0);
            cond.acquire();
            cond.signal(); // meant for a...
            a.cancel();    // ...which is cancelled before it returns
            cond.release();
            assertThrows(CancelledError.class, () -> await(a));
            assertEquals("b woke", await(b));
            assertFalse(cond.locked());
        });
    }

    @Test
    void waitForChecksThePredicateAfterEveryWakeUp() {
        run(() -> {
            Condition cond = new Condition();
            int[] value = {0};
            int[] checks = {0};
            Task<Void> w = createTask(() -> cond.withLock(() -> cond.waitFor(() -> {
                checks[0]++;
                return value[0] >= 3;
            })));
            for (int i = 0; i < 3; i++) {
                sleep(0);
                cond.withLock(() -> {
                    value[0]++;
                    cond.signalAll();
                });
            }
            await(w);
            assertEquals(4, checks[0]);
        });
    }
}
