package io.jasyncio.task;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.currentTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.task.VirtualTime.run;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.timeout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@org.junit.jupiter.api.Timeout(10)
@EveryLoop
@EveryEngine
class TimeoutTest {

    @Test
    void aBodyThatFinishesInTimeReturnsItsResult() {
        assertEquals("done", run(() -> timeout(5, () -> sleep(0.01, "done"))));
    }

    @Test
    void theTimeoutWaitsForTheBodysCleanupBeforeRaising() {
        List<String> trace = new ArrayList<>();
        run(() -> {
            TimeoutException e = assertThrows(TimeoutException.class, () -> timeout(0.02, () -> {
                try {
                    sleep(10);
                } catch (CancelledError cancelled) {
                    trace.add("cancelled");
                    sleep(0.02); // cleanup that awaits
                    trace.add("cleaned up");
                    throw cancelled;
                }
            }));
            assertInstanceOf(CancelledError.class, e.getCause(), "the timeout says which cancellation it replaced");
            assertEquals(0, currentTask().cancelling());
            return null;
        });
        assertEquals(List.of("cancelled", "cleaned up"), trace);
    }

    @Test
    void aTimeoutExpiringDuringCancellationCleanupConvertsOnlyItsOwnCancellation() {
        List<String> trace = new ArrayList<>();
        run(() -> {
            Task<Void> t = createTask(() -> {
                try {
                    sleep(10);
                } catch (CancelledError outside) {
                    // Cleanup bounded by a timeout: it expires while the task is being cancelled.
                    try {
                        timeout(0.02, () -> sleep(10));
                    } catch (TimeoutException e) {
                        trace.add("cleanup timed out, cancelling=" + currentTask().cancelling());
                    }
                    throw outside;
                }
            });
            sleep(0.01);
            t.cancel();
            assertThrows(CancelledError.class, () -> await(t));
            assertTrue(t.isCancelled());
            return null;
        });
        assertEquals(List.of("cleanup timed out, cancelling=1"), trace);
    }

    @Test
    void aBodyThatSwallowsTheCancellationEndsNormallyButExpired() {
        run(() -> {
            Timeout t = timeout(0.01);
            String r = t.run(() -> {
                try {
                    sleep(10);
                } catch (CancelledError swallowed) {
                    return "swallowed";
                }
                return "not reached";
            });
            assertEquals("swallowed", r);
            assertTrue(t.expired());
            assertEquals(0, currentTask().cancelling(), "the timeout balanced its own request");
            sleep(0); // and no cancellation is left pending
            return null;
        });
    }

    @Test
    void otherFailuresPassThroughUnchanged() {
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        run(() -> {
            IllegalArgumentException seen = assertThrows(IllegalArgumentException.class,
                    () -> timeout(1, () -> {
                        sleep(0.01);
                        throw boom;
                    }));
            assertEquals(boom, seen);
            return null;
        });
    }

    @Test
    void aTimeoutRunsOnlyOnceAndOnlyInsideATask() {
        run(() -> {
            Timeout t = timeout(1);
            t.run(() -> sleep(0));
            assertThrows(IllegalStateException.class, () -> t.run(() -> sleep(0)));
            assertThrows(IllegalStateException.class, () -> t.reschedule(null));
            List<Throwable> fromCallback = new ArrayList<>();
            getRunningLoop().callSoon(() -> {
                try {
                    Timeout.at(0).run(() -> {
                    });
                } catch (Throwable e) {
                    fromCallback.add(e);
                }
            });
            sleep(0);
            assertEquals(1, fromCallback.size());
            assertInstanceOf(IllegalStateException.class, fromCallback.get(0));
            assertTrue(fromCallback.get(0).getMessage().contains("inside a task"));
            return null;
        });
    }

    @Test
    void theBodyCanReceiveItsTimeoutAndMoveTheDeadline() {
        run(() -> {
            String r = timeout(0.01, t -> {
                t.reschedule(getRunningLoop().time() + 5);
                sleep(0.03); // past the first deadline
                return t.expired() ? "expired" : "extended";
            });
            assertEquals("extended", r);
            assertThrows(TimeoutException.class, () -> timeout(5, t -> {
                t.reschedule(getRunningLoop().time() + 0.01);
                return sleep(10, "late");
            }));
            return null;
        });
    }

    @Test
    void whenIsTheDeadlineAndNullMeansNone() {
        run(() -> {
            Timeout t = Timeout.never();
            assertNull(t.when());
            t.run(() -> {
                double deadline = getRunningLoop().time() + 100;
                t.reschedule(deadline);
                assertEquals(deadline, t.when());
            });
            assertFalse(t.expired());
            return null;
        });
    }
}
