package io.jasyncio;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.net.Server;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.net.StreamConnection;
import io.jasyncio.task.Task;
import io.jasyncio.task.TaskGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.asCompleted;
import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.currentTask;
import static io.jasyncio.Asyncio.gather;
import static io.jasyncio.Asyncio.newEventLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.runUntilComplete;
import static io.jasyncio.Asyncio.shield;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.startServer;
import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The facade where an asyncio user reaches first: a loop that is not running yet takes tasks and
 * coroutines, the combinators take coroutines (each made a task, in argument order, as asyncio's
 * ensure_future), a TaskGroup hands back what its body made, and the streams take a limit.
 */
@Timeout(10)
class AsyncioFacadeTest {

    @Test
    void aLoopThatIsNotRunningYetTakesTasksAndRunsACoroutineUntilComplete() {
        List<String> trace = new ArrayList<>();
        try (EventLoop loop = newEventLoop()) {
            Task<String> early = createTask(loop, () -> {
                trace.add("early task ran");
                return "early";
            });
            assertFalse(loop.isRunning());
            String result = runUntilComplete(loop, () -> {
                trace.add("main ran");
                return await(early) + " then main";
            });
            assertEquals("early then main", result);
            assertEquals(List.of("early task ran", "main ran"), trace, "tasks start in creation order");
            runUntilComplete(loop, () -> trace.add("the loop can run again"));
            assertEquals(3, trace.size());
        }
    }

    @Test
    void gatherTakesCoroutinesAndMakesATaskOfEachInArgumentOrder() {
        List<String> started = new ArrayList<>();
        List<Object> results = run(() -> await(gather(
                () -> {
                    started.add("a");
                    return sleep(0.02, "a");
                },
                () -> {
                    started.add("b");
                    return sleep(0.01, "b");
                })));
        assertEquals(List.of("a", "b"), results, "results in argument order");
        assertEquals(List.of("a", "b"), started, "tasks started in argument order");

        List<Void> nothing = run(() -> await(gather(() -> sleep(0.01), () -> sleep(0))));
        assertEquals(2, nothing.size(), "bodies that return nothing gather as nulls");
    }

    @Test
    void gatherOfCoroutinesCanReturnTheirExceptions() {
        List<Object> results = run(() -> await(gather(true,
                () -> "fine",
                () -> {
                    throw new IllegalStateException("boom");
                })));
        assertEquals("fine", results.get(0));
        assertTrue(results.get(1) instanceof IllegalStateException);
    }

    @Test
    void asCompletedTakesCoroutinesAndYieldsInCompletionOrder() {
        List<String> order = run(() -> {
            List<String> seen = new ArrayList<>();
            for (Future<String> next : asCompleted(() -> sleep(0.05, "slow"), () -> sleep(0.01, "fast"))) {
                seen.add(await(next));
            }
            return seen;
        });
        assertEquals(List.of("fast", "slow"), order);
    }

    @Test
    void aShieldedCoroutineRunsOnWhenItsAwaiterIsCancelled() {
        List<String> trace = new ArrayList<>();
        run(() -> {
            Task<String> awaiter = createTask(() -> await(shield(() -> {
                sleep(0.03);
                trace.add("shielded body finished");
                return "done";
            })));
            sleep(0.01);
            awaiter.cancel();
            assertThrows(CancelledError.class, () -> await(awaiter));
            sleep(0.05);
            return null;
        });
        assertEquals(List.of("shielded body finished"), trace);
    }

    @Test
    void waitForRunsACoroutineAsATaskOfItsOwn() {
        run(() -> {
            Task<?> caller = currentTask();
            Task<?> inside = waitFor(() -> currentTask(), 1.0);
            assertNotSame(caller, inside, "as asyncio, wait_for wraps the coroutine in a task");
            return null;
        });
    }

    @Test
    void aTaskGroupHandsBackWhatItsBodyReturns() {
        run(() -> {
            Task<String> page = TaskGroup.call(tg -> {
                tg.createTask(() -> sleep(0.01));
                return tg.createTask(() -> sleep(0.02, "page"));
            });
            assertTrue(page.isDone(), "the group waited for it");
            assertEquals("page", page.result());

            record Pair(Task<String> first, Task<String> second) {
            }
            Pair both = TaskGroup.call(tg -> new Pair(tg.createTask(() -> sleep(0, "first")),
                    tg.createTask(() -> sleep(0.01, "second"))));
            assertEquals(List.of("first", "second"), List.of(both.first().result(), both.second().result()),
                    "its tasks, all done");
            return null;
        });
    }

    @Test
    void theStreamsTakeTheReadersLimit() throws IOException {
        run(() -> {
            List<String> serverSaw = new ArrayList<>();
            Server server = startServer((reader, writer) -> {
                try {
                    reader.readline();
                    serverSaw.add("a whole line");
                } catch (IllegalArgumentException overLimit) {
                    serverSaw.add("over its limit of 8");
                }
                writer.write("a line longer than eight bytes\n".getBytes());
                writer.close();
            }, "127.0.0.1", 0, ServerOptions.defaults(), 8);
            int port = ((InetSocketAddress) server.addresses().getFirst()).getPort();

            StreamConnection c = openConnection("127.0.0.1", port, null, 8);
            c.writer().write("twenty bytes or so!\n".getBytes());
            assertThrows(IllegalArgumentException.class, () -> c.reader().readline(), "the client's limit is 8 too");
            c.writer().close();
            c.writer().waitClosed();
            server.close();
            server.waitClosed();
            assertEquals(List.of("over its limit of 8"), serverSaw);
            return null;
        });
    }
}
