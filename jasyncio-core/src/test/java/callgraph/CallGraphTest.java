package callgraph;

import io.jasyncio.Asyncio;
import io.jasyncio.debug.graph.AwaitTree;
import io.jasyncio.debug.graph.FutureCallGraph;
import io.jasyncio.debug.graph.ProgramFrames;
import io.jasyncio.debug.graph.TaskRow;
import io.jasyncio.debug.graph.TaskSnapshot;
import io.jasyncio.debug.graph.TaskTable;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.Future;
import io.jasyncio.sync.Event;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * asyncio 3.14's call graphs in the process: where a task is suspended and who awaits it, through
 * each way of awaiting, on the engine the JVM runs (this class runs on both). The programs are in
 * {@link Awaiting}, outside the library's packages.
 */
@EveryLoop
@EveryEngine
class CallGraphTest {

    private static List<String> functions(List<StackTraceElement> frames) {
        return frames.stream().map(ProgramFrames::function).toList();
    }

    private static Task<?> named(String name) {
        return Asyncio.allTasks().stream().filter(t -> t.getName().equals(name)).findFirst().orElseThrow();
    }

    private static void cancelAndWait(Task<?> task) {
        task.cancel();
        try {
            Asyncio.await(task);
        } catch (CancelledError expected) {
            // what was asked
        }
    }

    @Test
    void aTaskGroupsChildIsAwaitedByTheTaskRunningTheGroup() {
        Asyncio.run(() -> {
            Event first = new Event();
            Event second = new Event();
            Task<Void> album = Asyncio.createTask(() -> Awaiting.album(first, second), "album");
            first.await();
            second.await();
            FutureCallGraph play = Asyncio.captureCallGraph(named("first"));
            assertEquals(List.of("Asyncio.sleep", "Awaiting.play"), functions(play.callStack()));
            assertEquals(1, play.awaitedBy().size(), play.toString());
            FutureCallGraph by = play.awaitedBy().getFirst();
            assertSame(album, by.future());
            assertEquals(List.of("Asyncio.taskGroup", "Awaiting.album"), functions(by.callStack()));
            assertTrue(by.awaitedBy().isEmpty());

            String printed = Asyncio.formatCallGraph(named("first")).replaceAll("0x[0-9a-f]+", "ID")
                    .replaceAll("line \\d+", "line N");
            assertEquals("""
                    * Task(name='first', id=ID)
                      + Call stack:
                      |   File 'Asyncio.java', line N, in Asyncio.sleep()
                      |   File 'Awaiting.java', line N, in Awaiting.play()
                      + Awaited by:
                        * Task(name='album', id=ID)
                          + Call stack:
                          |   File 'Asyncio.java', line N, in Asyncio.taskGroup()
                          |   File 'Awaiting.java', line N, in Awaiting.album()""", printed);

            List<TaskRow> rows = TaskSnapshot.takeNow(Asyncio.getRunningLoop(), 0);
            String tree = String.join("\n", renderTree(rows)).replaceAll(":\\d+", ":N");
            assertTrue(tree.contains("""
                    └── (T) album
                        └──  Awaiting.album Awaiting.java:N
                            └──  Asyncio.taskGroup Asyncio.java:N
                                ├── (T) first
                                │   └──  Awaiting.play Awaiting.java:N
                                │       └──  Asyncio.sleep Asyncio.java:N
                                └── (T) second
                                    └──  Awaiting.play Awaiting.java:N
                                        └──  Asyncio.sleep Asyncio.java:N"""), tree);
            String table = String.join("\n", TaskTable.render(rows));
            assertTrue(table.lines().anyMatch(l -> l.matches(".* first +waiting +Asyncio.sleep -> Awaiting.play"
                    + " +Asyncio.taskGroup -> Awaiting.album +album +0x[0-9a-f]+")), table);
            cancelAndWait(album);
        });
    }

    private static List<String> renderTree(List<TaskRow> rows) {
        try {
            return AwaitTree.render(rows);
        } catch (AwaitTree.CyclesFound e) {
            throw new AssertionError(e.report());
        }
    }

    @Test
    void gatherShieldAndWaitForRecordTheirCaller() {
        Asyncio.run(() -> {
            Event a = new Event();
            Event b = new Event();
            Event c = new Event();
            Event d = new Event();
            Task<Void> playA = Asyncio.createTask(() -> Awaiting.play(a), "a");
            Task<Void> playB = Asyncio.createTask(() -> Awaiting.play(b), "b");
            Task<Void> playC = Asyncio.createTask(() -> Awaiting.play(c), "c");
            Task<Void> playD = Asyncio.createTask(() -> Awaiting.play(d), "d");
            Task<Void> gathering = Asyncio.createTask(() -> Awaiting.gatherBoth(playA, playB), "gathering");
            Task<Void> shielding = Asyncio.createTask(() -> Awaiting.shielded(playC), "shielding");
            Task<Void> waiting = Asyncio.createTask(() -> Awaiting.waitForIt(playD), "waiting");
            a.await();
            b.await();
            c.await();
            d.await();
            Asyncio.sleep(0); // the three awaiting tasks take their first step

            assertAwaitedBy(playB, gathering, "Asyncio.await", "Awaiting.gatherBoth");
            assertAwaitedBy(playC, shielding, "Asyncio.await", "Awaiting.shielded");
            assertAwaitedBy(playD, waiting, "Asyncio.waitFor", "Awaiting.waitForIt");

            cancelAndWait(gathering); // cancels the gather, and with it its children
            cancelAndWait(shielding); // the shielded task runs on, no longer awaited by anyone
            assertTrue(playA.isCancelled());
            assertTrue(playA.awaitedBy().isEmpty(), "gather discards its records as children finish");
            assertTrue(playC.awaitedBy().isEmpty(), "shield discards its record once the caller stops waiting");
            assertTrue(Asyncio.captureCallGraph(playC).awaitedBy().isEmpty());
            cancelAndWait(waiting);
            cancelAndWait(playC);
        });
    }

    private static void assertAwaitedBy(Task<?> awaited, Task<?> waiter, String... waiterFunctions) {
        FutureCallGraph g = Asyncio.captureCallGraph(awaited);
        assertEquals(1, g.awaitedBy().size(), Asyncio.formatCallGraph(awaited));
        assertSame(waiter, g.awaitedBy().getFirst().future());
        assertEquals(List.of(waiterFunctions), functions(g.awaitedBy().getFirst().callStack()));
    }

    @Test
    void theCurrentTaskSeesItsOwnFramesAndItsAwaiter() {
        Asyncio.run(() -> {
            FutureCallGraph[] seen = new FutureCallGraph[1];
            Task<Void> inner = Asyncio.createTask(() -> {
                Asyncio.sleep(0);
                seen[0] = Awaiting.whereAmI();
            }, "inner");
            Task<Void> outer = Asyncio.createTask(() -> Awaiting.awaitTask(inner), "outer");
            Asyncio.await(outer);
            assertSame(inner, seen[0].future());
            assertEquals("Awaiting.whereAmI", ProgramFrames.function(seen[0].callStack().getFirst()));
            assertSame(outer, seen[0].awaitedBy().getFirst().future());
            assertEquals(List.of("Asyncio.await", "Awaiting.awaitTask"),
                    functions(seen[0].awaitedBy().getFirst().callStack()));
        });
    }

    @Test
    void theRunningTaskNamedExplicitlyIsCapturedFromTheCallersOwnFrames() {
        Asyncio.run(() -> {
            Task<Void> inner = Asyncio.createTask(() -> {
                Asyncio.sleep(0);
                FutureCallGraph byName = Awaiting.whereIs(Task.current());
                assertEquals("Awaiting.whereIs", ProgramFrames.function(byName.callStack().getFirst()),
                        "a running task's own frames, not its (empty) suspended stack: " + byName);
            }, "inner");
            Asyncio.await(inner);
        });
    }

    @Test
    void aPlainFutureIsAwaitedByTheTasksSuspendedOnIt() {
        Asyncio.run(() -> {
            Future<Void> plain = Asyncio.getRunningLoop().createFuture();
            Task<Void> one = Asyncio.createTask(() -> Awaiting.awaitTask(plain), "one");
            Task<Void> two = Asyncio.createTask(() -> Awaiting.awaitTask(plain), "two");
            Asyncio.sleep(0);
            FutureCallGraph g = Asyncio.captureCallGraph(plain);
            assertTrue(g.callStack().isEmpty());
            assertEquals(List.of(one, two), g.awaitedBy().stream().map(FutureCallGraph::future).toList());
            assertTrue(Asyncio.formatCallGraph(plain).startsWith("* Future(id=0x"));
            plain.setResult(null);
            Asyncio.await(one);
            Asyncio.await(two);
        });
    }

    @Test
    void tasksAwaitingEachOtherAreReportedAsAsyncioReportsCycles() {
        Asyncio.run(() -> {
            Event a = new Event();
            Event b = new Event();
            Task<Void> first = Asyncio.createTask(() -> Awaiting.play(a), "A");
            Task<Void> second = Asyncio.createTask(() -> Awaiting.play(b), "B");
            a.await();
            b.await();
            first.addAwaitedBy(second); // as a structure awaiting on their behalf would record it
            second.addAwaitedBy(first);
            List<TaskRow> rows = TaskSnapshot.takeNow(Asyncio.getRunningLoop(), 0);
            AwaitTree.CyclesFound found = assertThrows(AwaitTree.CyclesFound.class, () -> AwaitTree.render(rows));
            assertEquals("ERROR: await-graph contains cycles - cannot print a tree!\n\ncycle: B → A → B\n",
                    found.report());
            FutureCallGraph g = Asyncio.captureCallGraph(first); // followed once round, not for ever
            assertSame(second, g.awaitedBy().getFirst().future());
            assertSame(first, g.awaitedBy().getFirst().awaitedBy().getFirst().future());
            assertTrue(g.awaitedBy().getFirst().awaitedBy().getFirst().awaitedBy().isEmpty());
            first.discardAwaitedBy(second);
            second.discardAwaitedBy(first);
            assertTrue(first.awaitedBy().isEmpty());
            cancelAndWait(first);
            cancelAndWait(second);
        });
    }
}
