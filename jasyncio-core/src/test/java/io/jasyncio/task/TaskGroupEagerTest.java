package io.jasyncio.task;

import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Eager tasks in a TaskGroup: they start inside createEagerTask, and the group treats them as any child. */
@EveryLoop
@EveryEngine
class TaskGroupEagerTest {

    @Test
    void anEagerChildRunsUntilItsFirstSuspensionInsideCreateEagerTask() {
        List<String> trace = new ArrayList<>();
        int total = run(() -> TaskGroup.call(tg -> {
            Future<Integer> gate = getRunningLoop().createFuture();
            Task<Integer> quick = tg.createEagerTask(() -> {
                trace.add("quick ran");
                return 1;
            });
            trace.add("after quick: done=" + quick.isDone());
            Task<Integer> waiting = tg.createEagerTask(() -> {
                trace.add("waiting started");
                int v = await(gate);
                trace.add("waiting resumed");
                return v;
            });
            trace.add("after waiting: done=" + waiting.isDone());
            gate.setResult(2);
            return List.of(quick, waiting);
        }).stream().mapToInt(Task::result).sum());
        assertEquals(3, total);
        assertEquals(List.of("quick ran", "after quick: done=true", "waiting started", "after waiting: done=false",
                "waiting resumed"), trace);
    }

    @Test
    void anEagerChildThatFailsAtOnceFailsTheGroupAndCancelsItsSiblings() {
        List<String> trace = new ArrayList<>();
        List<Task<?>> siblings = new ArrayList<>();
        ExceptionGroup group = assertThrows(ExceptionGroup.class, () -> run(() -> {
            TaskGroup.run(tg -> {
                siblings.add(tg.createTask(() -> {
                    trace.add("sibling started"); // it never starts: cancelled before its first step
                    sleep(10);
                }));
                tg.createEagerTask(() -> {
                    throw new IllegalStateException("failed before its first await");
                });
                sleep(10); // the parent is cancelled here, as asyncio's TaskGroup does
                trace.add("the body went on");
            });
            return null;
        }));
        assertEquals(1, group.exceptions().size());
        assertInstanceOf(IllegalStateException.class, group.exceptions().getFirst());
        assertEquals(List.of(), trace, "neither the sibling nor the rest of the body ran");
        assertTrue(siblings.getFirst().isCancelled());
        assertTrue(group.getMessage().contains("unhandled errors in a TaskGroup"), group.getMessage());
    }
}
