package io.jasyncio.task;

import io.jasyncio.Asyncio;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.jasyncio.Asyncio.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** allTasks() through the registry's slot reuse, growth, and tasks collected while pending (waiting, or dropped by a closing loop). */
@Timeout(30)
@EveryLoop
@EveryEngine
class AllTasksTest {

    @Test
    void allTasksHoldsExactlyThePendingTasksAsSlotsAreReusedAndTheTableGrows() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            List<Future<Integer>> gates = new ArrayList<>();
            List<Task<Integer>> tasks = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 150; i++) { // more than the table's first size (64)
                    Future<Integer> gate = loop.createFuture();
                    gates.add(gate);
                    tasks.add(Tasks.create(loop, () -> await(gate), null, null));
                }
                runBriefly(loop);
                // finish every other task: their slots are given back and reused next round
                for (int i = 0; i < tasks.size(); i++) {
                    if (i % 2 == 0 && !gates.get(i).isDone()) {
                        gates.get(i).setResult(i);
                    }
                }
                runBriefly(loop);
                Set<Task<?>> expected = new HashSet<>();
                for (Task<Integer> t : tasks) {
                    if (!t.isDone()) {
                        expected.add(t);
                    }
                }
                assertEquals(expected, new HashSet<>(Task.allTasks(loop)));
            }
            gates.forEach(g -> {
                if (!g.isDone()) {
                    g.setResult(0);
                }
            });
            runBriefly(loop);
            assertTrue(Task.allTasks(loop).isEmpty());
        }
    }

    @Test
    void aPendingTaskNobodyReferencesIsCollectedAndLeavesAllTasks() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            Future<Integer> kept = loop.createFuture();
            Task<Integer> keptTask = Tasks.create(loop, () -> await(kept), "kept", null);
            abandonTasks(loop, 100);
            collectUntilAtMost(loop, 1);
            assertEquals(Set.of(keptTask), Task.allTasks(loop));
            // the collected tasks' slots are reclaimed when the table fills: registering many more still works
            List<Future<Integer>> gates = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                Future<Integer> gate = loop.createFuture();
                gates.add(gate);
                Tasks.create(loop, () -> await(gate), null, null);
            }
            runBriefly(loop);
            assertEquals(301, Task.allTasks(loop).size());
            gates.forEach(g -> g.setResult(1));
            kept.setResult(1);
            runBriefly(loop);
            assertFalse(Task.allTasks(loop).contains(keptTask));
        }
    }

    @Test
    void tasksQueuedWhenTheLoopClosesAreCollectedAndLeaveAllTasks() {
        EventLoop loop = EventLoops.newEventLoop();
        for (int i = 0; i < 50; i++) {
            Tasks.create(loop, () -> {
                Asyncio.sleep(0);
                return await(loop.createFuture());
            }, "yielded-" + i, null);
        }
        loop.callSoon(loop::stop);
        loop.runForever(); // each steps once and yields: it is queued again when the loop closes
        for (int i = 0; i < 50; i++) {
            Tasks.create(loop, () -> 1, "never-stepped-" + i, null);
        }
        assertEquals(100, Task.allTasks(loop).size());
        loop.close(); // drops the queued steps: nothing holds those tasks but the registry
        collectUntilAtMost(loop, 0);
        assertEquals(Set.of(), Task.allTasks(loop));
    }

    @Test
    void aTaskThatCouldNotBeQueuedIsCollectedAndLeavesAllTasks() {
        EventLoop loop = EventLoops.newEventLoop();
        loop.close();
        for (int i = 0; i < 10; i++) {
            assertThrows(IllegalStateException.class, () -> Tasks.create(loop, () -> 1, null, null));
        }
        collectUntilAtMost(loop, 0);
        assertEquals(Set.of(), Task.allTasks(loop));
    }

    /** Asks for collections (a bounded number) until {@code loop} has at most {@code pending} pending tasks left. */
    static void collectUntilAtMost(EventLoop loop, int pending) {
        io.jasyncio.testing.Collect.until(() -> Task.allTasks(loop).size() <= pending);
    }

    private static void abandonTasks(EventLoop loop, int n) {
        for (int i = 0; i < n; i++) {
            Tasks.create(loop, () -> await(loop.createFuture()), "abandoned-" + i, null); // waits forever
        }
        runBriefly(loop); // each steps once and suspends on a future only it references
    }

    private static void runBriefly(EventLoop loop) {
        loop.callLater(0.01, loop::stop);
        loop.runForever();
    }
}
