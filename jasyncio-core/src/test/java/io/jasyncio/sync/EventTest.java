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
class EventTest {

    @Test
    void setWakesEveryWaiterInWaitingOrderButNotInline() {
        List<String> order = new ArrayList<>();
        run(() -> {
            Event ev = new Event();
            List<Task<Void>> ws = new ArrayList<>();
            for (String n : List.of("w1", "w2", "w3")) {
                ws.add(createTask(() -> {
                    ev.await();
                    order.add(n);
                }));
            }
            sleep(0);
            ev.set();
            order.add("set returned");
            for (Task<Void> w : ws) {
                await(w);
            }
            assertTrue(ev.isSet());
        });
        assertEquals(List.of("set returned", "w1", "w2", "w3"), order);
    }

    @Test
    void waitingOnASetEventDoesNotYield() {
        run(() -> {
            Event ev = new Event();
            ev.set();
            boolean[] otherRan = {false};
            Task<Void> other = createTask(() -> {
                otherRan[0] = true;
            });
            ev.await();
            ev.await();
            assertFalse(otherRan[0]);
            await(other);
        });
    }

    @Test
    void aCancelledWaiterLeavesTheOthersWaiting() {
        run(() -> {
            Event ev = new Event();
            Task<Void> a = createTask(ev::await);
            Task<String> b = createTask(() -> {
                ev.await();
                return "b woke";
            });
            sleep(0);
            a.cancel();
            assertThrows(CancelledError.class, () -> await(a));
            assertFalse(b.isDone());
            assertFalse(ev.toString().contains("waiters:2"), ev.toString());
            ev.set();
            assertEquals("b woke", await(b));
        });
    }

    @Test
    void clearMakesLaterWaitersWait() {
        run(() -> {
            Event ev = new Event();
            ev.set();
            ev.clear();
            Task<Void> w = createTask(ev::await);
            sleep(0.01);
            assertFalse(w.isDone());
            ev.set();
            await(w);
        });
    }
}
