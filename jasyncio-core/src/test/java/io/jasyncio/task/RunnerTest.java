package io.jasyncio.task;

import io.jasyncio.context.ContextVar;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
@EveryLoop
@EveryEngine
class RunnerTest {
    private static final ContextVar<String> SEEN = ContextVar.withDefault("seen", "unset");

    @Test
    void runsOfOneRunnerShareItsContext() {
        try (Runner runner = new Runner()) {
            runner.run(() -> SEEN.set("first run"));
            assertEquals("first run", runner.run(SEEN::get));
        }
    }

    @Test
    void closeCancelsLeftoverTasksAndLetsTheirCleanupFinish() {
        List<String> trace = new ArrayList<>();
        Runner runner = new Runner();
        runner.run(() -> createTask(() -> {
            try {
                sleep(10);
            } catch (CancelledError e) {
                sleep(0);
                trace.add("cleanup finished");
                throw e;
            }
        }));
        var loop = runner.getLoop();
        runner.close();
        assertEquals(List.of("cleanup finished"), trace);
        assertTrue(loop.isClosed());
        assertThrows(IllegalStateException.class, runner::getLoop);
    }

    @Test
    void closeJoinsTheDefaultExecutorWhileTheLoopKeepsRunning() {
        List<String> trace = new ArrayList<>();
        CountDownLatch timerRan = new CountDownLatch(1);
        Runner runner = new Runner();
        runner.run(() -> {
            EventLoop loop = Tasks.current().getLoop();
            loop.runInExecutor(null, () -> {
                // still running when run() returns: close must wait for it, and the loop must turn meanwhile
                boolean fired = timerRan.await(5, TimeUnit.SECONDS);
                synchronized (trace) {
                    trace.add("work finished, timer " + (fired ? "fired first" : "never fired"));
                }
                return null;
            });
            loop.callLater(0.05, () -> {
                synchronized (trace) {
                    trace.add("timer");
                }
                timerRan.countDown();
            });
            return null;
        });
        runner.close();
        synchronized (trace) {
            assertEquals(List.of("timer", "work finished, timer fired first"), trace);
        }
    }
}
