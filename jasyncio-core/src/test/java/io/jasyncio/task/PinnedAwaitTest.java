package io.jasyncio.task;

import io.jasyncio.loop.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On the continuation engine a task cannot suspend inside a class initializer (the JVM's frames
 * under it cannot be frozen): the await fails with IllegalStateException and the task goes on.
 * It then waits for nothing: its next {@code sleep(0)} steps it again, and the future it failed
 * to await never steps it. (The portable engine parks a virtual thread there instead: no such case.)
 */
@Timeout(10)
class PinnedAwaitTest {
    static Future<String> pending;

    /** Awaits {@link #pending} in its initializer, as a task's body may by touching the class. */
    static final class AwaitsInItsInitializer {
        static final String OUTCOME;

        static {
            String outcome;
            try {
                await(pending);
                outcome = "suspended in a class initializer";
            } catch (IllegalStateException cannotSuspend) {
                outcome = "could not suspend";
            }
            OUTCOME = outcome;
        }
    }

    @Test
    void anAwaitThatCannotSuspendFailsAndTheTaskWaitsForNothing() {
        List<Map<String, Object>> reports = new ArrayList<>();
        String outcome = run(() -> {
            getRunningLoop().setExceptionHandler((loop, context) -> reports.add(context));
            pending = getRunningLoop().createFuture(); // never completed
            Task<String> t = createTask(() -> {
                String first = AwaitsInItsInitializer.OUTCOME;
                sleep(0);
                return first + ", then went on";
            });
            return await(t);
        });
        assertEquals("could not suspend, then went on", outcome);
        assertTrue(reports.isEmpty(), reports.toString());
    }
}
