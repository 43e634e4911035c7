package io.jasyncio.task;

import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

import static io.jasyncio.Asyncio.asCompleted;
import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.task.VirtualTime.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(10)
@EveryLoop
@EveryEngine
class AsCompletedTest {

    @Test
    void resultsArriveInCompletionOrder() {
        List<String> order = run(() -> {
            List<Task<String>> tasks = List.of(
                    createTask(() -> sleep(0.06, "slow")),
                    createTask(() -> sleep(0.0, "fast")),
                    createTask(() -> sleep(0.03, "mid")));
            List<String> seen = new ArrayList<>();
            for (Future<String> next : asCompleted(tasks)) {
                seen.add(await(next));
            }
            return seen;
        });
        assertEquals(List.of("fast", "mid", "slow"), order);
    }

    @Test
    void aFailureIsRaisedByItsOwnSlot() {
        run(() -> {
            Task<String> bad = createTask(() -> {
                throw new IllegalStateException("bad");
            });
            Task<String> good = createTask(() -> sleep(0.02, "good"));
            AsCompleted<String> it = asCompleted(List.of(bad, good));
            assertThrows(IllegalStateException.class, () -> await(it.next()));
            assertEquals("good", await(it.next()));
            assertFalse(it.hasNext());
            assertThrows(NoSuchElementException.class, it::next);
            return null;
        });
    }

    @Test
    void aCompletionIsNotLostWhenTheTaskAwaitingASlotIsCancelled() {
        run(() -> {
            Task<String> a = createTask(() -> sleep(0.02, "a"));
            Task<String> b = createTask(() -> sleep(0.04, "b"));
            AsCompleted<String> it = asCompleted(List.of(a, b));
            Future<String> abandoned = it.next();
            Task<String> impatient = createTask(() -> await(abandoned));
            sleep(0);
            impatient.cancel();
            Future<String> second = it.next();
            assertEquals("a", await(second), "the first completion went to the slot still wanted");
            return null;
        });
    }

    @Test
    void afterTheTimeoutTheRemainingSlotsFailButTheInputsRunOn() {
        run(() -> {
            Future<String> never = getRunningLoop().createFuture();
            Task<String> quick = createTask(() -> sleep(0.0, "quick"));
            AsCompleted<String> it = asCompleted(List.of(never, quick), 0.03);
            assertEquals("quick", await(it.next()));
            assertThrows(TimeoutException.class, () -> await(it.next()));
            assertFalse(never.isDone());
            return null;
        });
    }
}
