package io.jasyncio.task;

import io.jasyncio.loop.Handle;
import io.jasyncio.loop.LoopObserver;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A task is queued as itself, with no handle; an observer still sees each of its steps as a
 * handle that names the task, one object for all its steps (as asyncio's task keeps one
 * wake-up), so an observer may key what it records by handle.
 */
@Timeout(10)
@EveryLoop
@EveryEngine
class ObservedStepTest {

    @Test
    void anObserverSeesEveryStepOfATaskAsOneHandleThatNamesIt() {
        List<Handle> started = new ArrayList<>();
        List<Handle> finished = new ArrayList<>();
        run(() -> {
            Task<String> t = createTask(() -> {
                sleep(0);
                sleep(0.001);
                return "done";
            }, "observed");
            getRunningLoop().setObserver(new LoopObserver() {
                @Override
                public void handleStarting(Handle handle, long startNanos) {
                    if (Task.steppedBy(handle) == t) {
                        started.add(handle);
                    }
                }

                @Override
                public void handleFinished(Handle handle, long nanos) {
                    if (Task.steppedBy(handle) == t) {
                        finished.add(handle);
                    }
                }
            });
            String result = await(t);
            getRunningLoop().setObserver(null);
            return result;
        });
        assertEquals(3, started.size(), "three steps: the first, after sleep(0), after the sleep");
        assertEquals(started, finished);
        for (Handle h : started) {
            assertSame(started.get(0), h);
        }
        assertEquals(true, started.get(0).describeForReport().contains("name='observed'"), started.get(0).describeForReport());
    }
}
