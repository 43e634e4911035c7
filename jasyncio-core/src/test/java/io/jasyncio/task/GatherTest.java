package io.jasyncio.task;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.gather;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.task.VirtualTime.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
@EveryLoop
@EveryEngine
class GatherTest {

    @Test
    void resultsComeInArgumentOrder() {
        List<String> results = run(() -> await(gather(
                createTask(() -> sleep(0.05, "slow")),
                createTask(() -> sleep(0.0, "fast")))));
        assertEquals(List.of("slow", "fast"), results);
    }

    @Test
    void cancellingTheGatherCancelsEveryChildAndFailsWithCancelledError() {
        run(() -> {
            Task<String> a = createTask(() -> sleep(10, "a"));
            Task<String> b = createTask(() -> sleep(10, "b"));
            Future<List<String>> all = gather(a, b);
            sleep(0.01);
            assertTrue(all.cancel("stop"));
            CancelledError error = assertThrows(CancelledError.class, () -> await(all));
            assertEquals("stop", error.getMessage());
            assertTrue(a.isCancelled());
            assertTrue(b.isCancelled());
            return null;
        });
    }

    @Test
    void cancellingTheGatherWinsOverReturnExceptions() {
        run(() -> {
            Task<String> a = createTask(() -> sleep(10, "a"));
            Future<List<Object>> all = gather(true, a);
            sleep(0);
            all.cancel();
            assertThrows(CancelledError.class, () -> await(all));
            return null;
        });
    }

    @Test
    void aCancelledChildFailsTheGatherWithCancelledError() {
        run(() -> {
            Task<String> a = createTask(() -> sleep(10, "a"));
            Task<String> b = createTask(() -> sleep(0.01, "b"));
            Future<List<String>> all = gather(a, b);
            sleep(0);
            a.cancel("child gone");
            CancelledError error = assertThrows(CancelledError.class, () -> await(all));
            assertEquals("child gone", error.getMessage());
            assertFalse(all.isCancelled(), "the gather failed with CancelledError; it was not cancelled itself");
            assertEquals("b", await(b));
            return null;
        });
    }

    @Test
    void aCancelledChildBecomesACancelledErrorInTheResultsWithReturnExceptions() {
        List<Object> results = run(() -> {
            Task<String> a = createTask(() -> sleep(10, "a"));
            Task<String> b = createTask(() -> sleep(0.01, "b"));
            Future<List<Object>> all = gather(true, a, b);
            sleep(0);
            a.cancel();
            return await(all);
        });
        assertInstanceOf(CancelledError.class, results.get(0));
        assertEquals("b", results.get(1));
    }

    @Test
    void theFirstFailureIsTheVeryExceptionObject() {
        IllegalStateException boom = new IllegalStateException("boom");
        run(() -> {
            Task<String> bad = createTask(() -> {
                sleep(0.01);
                throw boom;
            });
            Task<String> slow = createTask(() -> sleep(0.05, "slow"));
            IllegalStateException seen = assertThrows(IllegalStateException.class, () -> await(gather(bad, slow)));
            assertSame(boom, seen);
            assertFalse(slow.isDone(), "the other children keep running");
            assertEquals("slow", await(slow));
            return null;
        });
    }

    @Test
    void emptyGatherIsDoneAtOnceWithAnEmptyList() {
        run(() -> {
            Future<List<Object>> none = gather();
            assertTrue(none.isDone());
            assertEquals(List.of(), none.result());
            return null;
        });
    }

    @Test
    void futuresOfAnotherLoopAreRefused() {
        try (var other = io.jasyncio.loop.EventLoops.newEventLoop()) {
            Future<String> foreign = other.createFuture();
            run(() -> {
                Future<String> mine = getRunningLoop().createFuture();
                assertThrows(IllegalArgumentException.class, () -> gather(mine, foreign));
                return null;
            });
        }
    }
}
