package io.jasyncio.debug;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A callback that runs an eager task's first step inline (an HTTP handler started from the
 * transport's read callback) and the step holds the loop: the reports name the handle as asyncio
 * does, then the task whose eager step took the time.
 */
@Timeout(30)
@EveryEngine
class EagerStepReportTest {
    /** asyncio's line byte for byte, then the eager step: its task's repr and how long it ran. */
    private static final Pattern SLOW_LINE = Pattern.compile(
            "Executing <Handle io\\.jasyncio\\.debug\\.EagerStepReportTest lambda> took (\\d+\\.\\d{3}) seconds; "
                    + "in it, eager step of <Task pending name='slow-handler' coro=\\S+ lambda created at (\\S+)> "
                    + "took (\\d+\\.\\d{3}) seconds");

    /** Stands in for a CPU-bound call in a handler: busy for {@code nanos}, bounded by a count too. */
    static long verifyOnTheLoop(long nanos) {
        long end = System.nanoTime() + nanos;
        long spins = 0;
        while (System.nanoTime() < end && spins < 4_000_000_000L) {
            spins++;
        }
        return spins;
    }

    /** A handler's body: busy on the loop, then a real suspension (the task is pending when reported). */
    private static Void slowHandler() {
        verifyOnTheLoop(150_000_000L);
        sleep(0.01);
        return null;
    }

    /**
     * Runs {@code loop} until the task that {@code startsEagerTask} starts, from a plain callback,
     * is done.
     */
    private static void runCallbackStartingTask(EventLoop loop, java.util.function.Supplier<Task<?>> startsEagerTask) {
        AtomicReference<Task<?>> started = new AtomicReference<>();
        loop.callSoon(() -> {
            Task<?> task = startsEagerTask.get();
            started.set(task);
            task.addDoneCallback(f -> loop.stop());
        });
        loop.runForever();
        assertNotNull(started.get());
        assertTrue(started.get().isDone());
        assertEquals(null, started.get().result());
    }

    @Test
    void debugModeNamesTheEagerTaskWhoseStepHeldTheLoopAfterTheHandle() {
        try (LogCapture log = new LogCapture("io.jasyncio.loop"); EventLoop loop = EventLoops.newEventLoop()) {
            loop.setDebug(true);
            loop.setSlowCallbackDuration(0.05);
            runCallbackStartingTask(loop, () -> Tasks.createEager(loop, EagerStepReportTest::slowHandler, "slow-handler", null));
            List<String> lines = log.containing("Executing <Handle io.jasyncio.debug.EagerStepReportTest lambda>");
            assertEquals(1, lines.size(), log.messages().toString());
            Matcher m = SLOW_LINE.matcher(lines.getFirst());
            assertTrue(m.matches(), lines.getFirst());
            assertTrue(m.group(2).startsWith(EagerStepReportTest.class.getName() + ".lambda$"), m.group(2));
            double handle = Double.parseDouble(m.group(1));
            double eager = Double.parseDouble(m.group(3));
            assertTrue(eager <= handle && eager >= 0.14, "the eager step's time is part of the handle's: " + lines.getFirst());
        }
    }

    @Test
    void aNestedEagerStepIsTheOutermostOnesTime() {
        try (LogCapture log = new LogCapture("io.jasyncio.loop"); EventLoop loop = EventLoops.newEventLoop()) {
            loop.setDebug(true);
            loop.setSlowCallbackDuration(0.05);
            runCallbackStartingTask(loop, () -> Tasks.createEager(loop, () -> {
                Tasks.await(Tasks.createEager(loop, EagerStepReportTest::slowHandler, "inner-part", null));
                return null;
            }, "outer-handler", null));
            List<String> lines = log.containing("Executing <Handle io.jasyncio.debug.EagerStepReportTest lambda>");
            assertEquals(1, lines.size(), log.messages().toString());
            String line = lines.getFirst();
            assertTrue(line.contains("; in it, eager step of <Task pending name='outer-handler' "), line);
            assertFalse(line.contains("inner-part"), "the inner step is part of the outer one's time: " + line);
            assertFalse(line.contains("eager steps"), "one outermost eager step: " + line);
        }
    }

    @Test
    void theWatchdogNamesTheEagerTaskHoldingTheLoopInsideTheHandle() {
        List<BlockedLoopReport> reports = new CopyOnWriteArrayList<>();
        try (LogCapture log = new LogCapture("io.jasyncio.debug"); EventLoop loop = EventLoops.newEventLoop()) {
            try (Watchdog watchdog = Watchdog.install(loop, 0.05, reports::add)) {
                runCallbackStartingTask(loop, () -> Tasks.createEager(loop, EagerStepReportTest::slowHandler, "slow-handler", null));
            }
            List<BlockedLoopReport> handler = reports.stream().filter(r -> r.eagerStep() != null).toList();
            assertEquals(1, handler.size(), "one report per blocked episode: " + reports);
            BlockedLoopReport report = handler.getFirst();
            assertEquals("<Handle io.jasyncio.debug.EagerStepReportTest lambda>", report.handle());
            assertTrue(report.eagerStep().startsWith("<Task pending name='slow-handler' coro="), report.eagerStep());
            assertEquals("verifyOnTheLoop", report.blockingFrame().getMethodName());
            String named = "by <Handle io.jasyncio.debug.EagerStepReportTest lambda>; in it, eager step of <Task pending name='slow-handler'";
            assertTrue(report.summary().contains(named), report.summary());
            assertEquals(1, log.containing(named).size(), "logged too: " + log.messages());
        }
    }
}
