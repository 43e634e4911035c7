package io.jasyncio.task;

import io.jasyncio.context.ContextVar;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.gather;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * What every engine must keep across suspensions (this class runs on both, see the
 * threads-engine surefire execution): task code and loop callbacks never overlap, so plain
 * fields need no synchronisation; each resumed body still finds its task, its loop and its
 * context.
 */
@Timeout(60)
@EveryLoop
@EveryEngine
class EngineHandOffTest {
    private static final int TASKS = 50;
    private static final int YIELDS = 50;
    private static final ContextVar<Integer> ID = ContextVar.of("id");

    private int plainCounter; // written by task bodies and loop callbacks alike, never synchronised

    @Test
    void bodiesAndCallbacksTakeTurnsAndEachBodyKeepsItsTaskLoopAndContext() {
        int total = run(() -> {
            EventLoop loop = getRunningLoop();
            List<Task<Integer>> tasks = new ArrayList<>();
            for (int i = 0; i < TASKS; i++) {
                int id = i;
                tasks.add(createTask(() -> {
                    ID.set(id);
                    Task<?> me = Task.current();
                    for (int y = 0; y < YIELDS; y++) {
                        loop.callSoon(() -> plainCounter++); // runs between steps, never during one
                        sleep(0);
                        assertSame(me, Task.current());
                        assertSame(loop, getRunningLoop());
                        assertEquals(id, ID.get());
                        plainCounter++;
                    }
                    return id;
                }));
            }
            List<Integer> ids = await(gather(tasks));
            assertEquals(TASKS, ids.size()); // each callback was queued before its task's next step: all ran
            for (Task<Integer> task : tasks) { // the body's ContextVar.set landed in the task's own Context
                task.getContext().run(() -> assertEquals(task.result(), ID.get()));
            }
            return plainCounter;
        });
        assertEquals(2 * TASKS * YIELDS, total);
    }
}
