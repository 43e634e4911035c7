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
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
@EveryLoop
@EveryEngine
class AsCompletedTest {

    /** asyncio 3.13's async iteration: the tasks themselves, each once done, in completion order. */
    @Test
    void asynchronousIterationYieldsTheOriginalTasksInCompletionOrder() {
        run(() -> {
            Task<String> slow = createTask(() -> sleep(0.06, "slow"));
            Task<String> fast = createTask(() -> sleep(0.0, "fast"));
            Task<String> mid = createTask(() -> sleep(0.03, "mid"));
            AsCompleted<String> done = asCompleted(List.of(slow, fast, mid));
            List<Future<? extends String>> seen = new ArrayList<>();
            while (done.hasNext()) {
                Future<? extends String> next = done.nextDone();
                assertTrue(next.isDone(), "handed out once done: " + next);
                seen.add(next);
            }
            assertEquals(3, seen.size());
            assertSame(fast, seen.get(0));
            assertSame(mid, seen.get(1));
            assertSame(slow, seen.get(2));
            assertThrows(NoSuchElementException.class, done::nextDone);
            return null;
        });
    }

    /** Past the timeout, async iteration raises TimeoutError for what is left; both forms share one order. */
    @Test
    void asynchronousIterationTimesOutAndMixesWithThePlainForm() {
        run(() -> {
            Task<String> fast = createTask(() -> sleep(0.0, "fast"));
            Task<String> mid = createTask(() -> sleep(0.02, "mid"));
            Task<String> never = createTask(() -> sleep(10, "never"));
            AsCompleted<String> done = asCompleted(List.of(never, mid, fast), 0.05);
            assertSame(fast, done.nextDone());
            assertEquals("mid", await(done.next()));
            assertThrows(TimeoutException.class, done::nextDone);
            assertFalse(done.hasNext());
            assertFalse(never.isDone(), "the inputs are not cancelled");
            never.cancel();
            return null;
        });
    }

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
