package io.jasyncio.task;

import io.jasyncio.Asyncio;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Set;

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
class WaitTest {

    @Test
    void firstCompletedReturnsAsSoonAsOneIsDone() {
        run(() -> {
            Task<String> fast = createTask(() -> sleep(0.01, "fast"));
            Task<String> slow = createTask(() -> sleep(10, "slow"));
            DoneAndPending<Task<String>> r = Asyncio.wait(List.of(fast, slow), ReturnWhen.FIRST_COMPLETED);
            assertEquals(Set.of(fast), r.done());
            assertEquals(Set.of(slow), r.pending());
            assertFalse(slow.isCancelled(), "wait never cancels");
            slow.cancel();
            return null;
        });
    }

    @Test
    void aCancelledFutureCountsAsCompletedButNotAsAnException() {
        run(() -> {
            Future<String> cancelled = getRunningLoop().createFuture();
            Task<String> slow = createTask(() -> sleep(0.05, "slow"));
            getRunningLoop().callLater(0.01, () -> cancelled.cancel());
            DoneAndPending<Future<String>> r = Asyncio.wait(List.of(cancelled, slow), ReturnWhen.FIRST_EXCEPTION);
            assertEquals(Set.of(cancelled, slow), r.done(), "FIRST_EXCEPTION ignored the cancellation");
            return null;
        });
    }

    @Test
    void waitNeverRaisesTheFuturesErrors() {
        run(() -> {
            Task<String> bad = createTask(() -> {
                throw new IllegalStateException("bad");
            });
            DoneAndPending<Task<String>> r = Asyncio.wait(List.of(bad));
            assertEquals(Set.of(bad), r.done());
            assertTrue(bad.exception() instanceof IllegalStateException);
            return null;
        });
    }

    @Test
    void anEmptyCollectionIsRefused() {
        run(() -> {
            assertThrows(IllegalArgumentException.class, () -> Asyncio.wait(List.<Future<?>>of()));
            return null;
        });
    }

    @Test
    void futuresOfAnotherLoopAreRefused() {
        try (var other = io.jasyncio.loop.EventLoops.newEventLoop()) {
            Future<String> foreign = other.createFuture();
            run(() -> {
                assertThrows(IllegalArgumentException.class, () -> Asyncio.wait(List.of(foreign)));
                return null;
            });
        }
    }

    @Test
    void aTimeoutReturnsWhatIsDoneSoFar() {
        run(() -> {
            Future<String> never = getRunningLoop().createFuture();
            DoneAndPending<Future<String>> r = Asyncio.wait(List.of(never), 0.01);
            assertEquals(Set.of(), r.done());
            assertEquals(Set.of(never), r.pending());
            assertFalse(never.isDone());
            return null;
        });
    }
}
