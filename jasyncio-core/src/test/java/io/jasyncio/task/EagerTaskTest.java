package io.jasyncio.task;

import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createEagerTask;
import static io.jasyncio.Asyncio.currentTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
@EveryLoop
@EveryEngine
class EagerTaskTest {

    @Test
    void anEagerTaskRunsSynchronouslyUntilItsFirstSuspension() {
        List<String> trace = new ArrayList<>();
        run(() -> {
            Future<String> gate = getRunningLoop().createFuture();
            Task<String> t = createEagerTask(() -> {
                trace.add("eager start");
                String v = await(gate);
                trace.add("eager resumed");
                return v;
            });
            trace.add("createEagerTask returned");
            assertFalse(t.isDone());
            gate.setResult("v");
            assertEquals("v", await(t));
            return null;
        });
        assertEquals(List.of("eager start", "createEagerTask returned", "eager resumed"), trace);
    }

    @Test
    void aBodyThatNeverSuspendsFinishesInsideCreateEagerTask() {
        run(() -> {
            Task<?> outer = currentTask();
            Task<?>[] inside = {null};
            Task<Integer> t = createEagerTask(() -> {
                inside[0] = currentTask();
                return 42;
            });
            assertTrue(t.isDone());
            assertEquals(42, t.result());
            assertSame(t, inside[0], "currentTask() inside is the eager task");
            assertSame(outer, currentTask(), "and the creator is current again afterwards");
            return null;
        });
    }

    @Test
    void anEagerTaskThatYieldsContinuesOnTheLoop() {
        int result = run(() -> {
            Task<Integer> t = createEagerTask(() -> {
                sleep(0);
                return 7;
            });
            assertFalse(t.isDone());
            return await(t);
        });
        assertEquals(7, result);
    }
}
