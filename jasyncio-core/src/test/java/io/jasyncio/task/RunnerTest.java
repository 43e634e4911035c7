package io.jasyncio.task;

import io.jasyncio.context.ContextVar;
import io.jasyncio.loop.CancelledError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
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
}
