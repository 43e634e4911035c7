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
import java.util.List;
import java.util.Set;

import static io.jasyncio.Asyncio.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a loop keeps from finished tasks for the next ones (on the portable engine, the executors
 * that start body threads) must not keep a pending task nobody references, even while a task
 * started the same way is alive; and more tasks than it keeps all still run.
 */
@Timeout(60)
@EveryLoop
@EveryEngine
class TaskCollectionAfterReuseTest {

    @Test
    void aPendingTaskNobodyReferencesIsCollectedAfterOthersFinished() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            runToCompletion(loop, 200);
            Future<Integer> kept = loop.createFuture();
            Task<Integer> keptTask = Tasks.create(loop, () -> await(kept), "kept", null);
            for (int i = 0; i < 100; i++) {
                Tasks.create(loop, () -> await(loop.createFuture()), "abandoned-" + i, null); // waits forever
            }
            settle(loop); // each has stepped once and suspended on a future only it references
            AllTasksTest.collectUntilAtMost(loop, 1);
            assertEquals(Set.of(keptTask), Task.allTasks(loop));
            kept.setResult(1);
            assertEquals(1, loop.runUntilComplete(keptTask));
        }
    }

    @Test
    void moreTasksThanTheLoopKeepsForReuseAllRunAgainAndAgain() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            for (int round = 0; round < 3; round++) {
                runToCompletion(loop, 2_500);
            }
        }
    }

    /** Runs {@code n} tasks at once, each yielding once, and checks every one finished with its result. */
    private static void runToCompletion(EventLoop loop, int n) {
        List<Task<Integer>> tasks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int value = i;
            tasks.add(Tasks.create(loop, () -> {
                Asyncio.sleep(0);
                return value;
            }, null, null));
        }
        loop.runUntilComplete(GatheringFuture.gather(false, tasks));
        for (int i = 0; i < n; i++) {
            assertTrue(tasks.get(i).isDone(), "task " + i);
            assertEquals(i, tasks.get(i).result());
        }
    }

    /** Runs until every step queued now has run: a task queued last steps twice, after all of them. */
    private static void settle(EventLoop loop) {
        loop.runUntilComplete(Tasks.create(loop, () -> {
            Asyncio.sleep(0);
            return 0;
        }, null, null));
    }
}
