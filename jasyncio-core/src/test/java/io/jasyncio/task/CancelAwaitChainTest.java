package io.jasyncio.task;

import io.jasyncio.Asyncio;
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
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cancelling a task that awaits a task that awaits ...: the request travels down the chain of
 * awaits without recursion, so neither a long chain nor an await cycle overflows the stack.
 */
@Timeout(120)
@EveryLoop
@EveryEngine
class CancelAwaitChainTest {
    static final int CHAIN = 100_000;

    @Test
    void cancellingTheHeadOfAChainOf100000AwaitingTasksCancelsEveryOneInOrder() {
        int[] cancelledInOrder = {0}; // the innermost task raises first, then each awaiter in turn
        boolean[] outOfOrder = {false};
        Asyncio.run(() -> {
            Future<Void> innermost = getRunningLoop().createFuture();
            List<Task<Void>> chain = new ArrayList<>(CHAIN);
            for (int i = CHAIN - 1; i >= 0; i--) { // chain.get(k) awaits chain.get(k - 1); the first awaits the future
                Future<Void> awaited = chain.isEmpty() ? innermost : chain.get(chain.size() - 1);
                int depth = i;
                chain.add(createTask(() -> {
                    try {
                        return await(awaited);
                    } catch (CancelledError e) {
                        if (depth != CHAIN - 1 - cancelledInOrder[0]++) {
                            outOfOrder[0] = true;
                        }
                        throw e;
                    }
                }));
            }
            sleep(0); // every task suspends on what it awaits
            Task<Void> head = chain.get(CHAIN - 1);
            assertTrue(head.cancel("stop"));
            assertTrue(innermost.isCancelled(), "the request reached the end of the chain at once");
            CancelledError e = assertThrows(CancelledError.class, () -> await(head));
            assertEquals("stop", e.getMessage());
            for (Task<Void> t : chain) {
                assertTrue(t.isCancelled());
                assertEquals(1, t.cancelling(), "each task on the chain counts one request");
            }
        });
        assertEquals(CHAIN, cancelledInOrder[0]);
        assertEquals(false, outOfOrder[0], "the innermost task raised first, then each awaiter after what it awaits");
    }

    @Test
    void cancellingATaskOfAnAwaitCycleBreaksTheCycleWhereItCloses() {
        List<String> trace = new ArrayList<>();
        Asyncio.run(() -> {
            List<Task<Void>> ab = new ArrayList<>();
            Task<Void> a = createTask(() -> awaitTraced("a", ab.get(1), trace));
            Task<Void> b = createTask(() -> awaitTraced("b", ab.get(0), trace));
            ab.add(a);
            ab.add(b);
            sleep(0); // a awaits b, b awaits a: a deadlock only a cancellation ends
            assertTrue(a.cancel("stop"));
            assertEquals(1, a.cancelling());
            assertEquals(1, b.cancelling());
            assertThrows(CancelledError.class, () -> await(a));
            assertTrue(a.isCancelled());
            assertTrue(b.isCancelled());
        });
        // b closes the cycle (it awaits a, where the request started): it raises first, and a gets b's cancellation
        assertEquals(List.of("b cancelled", "a cancelled"), trace);
    }

    @Test
    void runEndsWhenItsShutdownCancelsAnAwaitCycleLeftPending() {
        List<String> trace = new ArrayList<>();
        String result = Asyncio.run(() -> {
            List<Task<Void>> abc = new ArrayList<>();
            for (String name : List.of("a", "b", "c")) {
                int next = abc.size() + 1;
                abc.add(createTask(() -> awaitTraced(name, abc.get(next % 3), trace))); // a -> b -> c -> a
            }
            sleep(0);
            return "main done"; // the cycle is still pending: Asyncio.run's shutdown cancels every task
        });
        assertEquals("main done", result);
        assertEquals(3, trace.size(), "every task of the cycle was cancelled: " + trace);
        assertTrue(trace.stream().allMatch(s -> s.endsWith(" cancelled")), trace.toString());
    }

    private static Void awaitTraced(String name, Task<Void> awaited, List<String> trace) {
        try {
            return await(awaited);
        } catch (CancelledError e) {
            trace.add(name + " cancelled");
            throw e;
        }
    }
}
