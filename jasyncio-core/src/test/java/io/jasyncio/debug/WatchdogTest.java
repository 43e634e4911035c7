package io.jasyncio.debug;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@SuppressWarnings("try") // resources held for their scope, not used by name
@Timeout(30)
@EveryEngine
class WatchdogTest {

    /** Stands in for a blocking call made on the loop: the frame the report must name. */
    private static void fetchProfileBlocking() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Stands in for a CPU-bound verify: busy for 500 ms without calling anything that blocks. */
    private static long verifySignatureOnTheCpu() {
        long end = System.nanoTime() + 500_000_000L;
        long spins = 0;
        while (System.nanoTime() < end) {
            spins++;
        }
        return spins;
    }

    @Test
    void theReportNamesTheBlockingFrameCapturedWhileTheLoopWasBlocked() {
        List<BlockedLoopReport> reports = new CopyOnWriteArrayList<>();
        try (LogCapture log = new LogCapture("io.jasyncio.debug")) {
            run(() -> {
                EventLoop loop = getRunningLoop();
                try (Watchdog watchdog = Watchdog.install(loop, 0.1, reports::add)) {
                    await(createTask(() -> {
                        fetchProfileBlocking();
                        return null;
                    }, "profile-handler"));
                }
                assertNull(loop.getObserver(), "closing the watchdog uninstalls it");
                return null;
            });
            // Only the handler's step is under test: on a loaded machine the main task's short
            // step can be descheduled past the threshold too, and is then reported, rightly.
            List<BlockedLoopReport> handler = reports.stream().filter(r -> r.handle().contains("name='profile-handler'")).toList();
            assertEquals(1, handler.size(), "one report per blocked episode: " + reports);
            BlockedLoopReport report = handler.getFirst();
            assertEquals("fetchProfileBlocking", report.blockingFrame().getMethodName());
            assertTrue(report.handle().startsWith("<Task pending name='profile-handler'"), report.handle());
            assertTrue(report.blockedSeconds() >= 0.1 && report.blockedSeconds() < 5, report.toString());
            assertTrue(report.toString().contains("blocking frame: " + WatchdogTest.class.getName() + ".fetchProfileBlocking("),
                    report.toString());
            assertEquals(1, log.containing("fetchProfileBlocking").size(), "logged too: " + log.messages());
        }
    }

    /** A class whose static initialiser takes 500 ms: a library's first use, the JVM warming up. */
    private static final class SlowToInitialise {
        static final long READY;

        static {
            fetchProfileBlocking();
            READY = System.nanoTime();
        }
    }

    @Test
    void aTaskBodyParkedBetweenTurnsIsNotAHold() {
        // the portable engine's body thread, seen by the watchdog while the scheduler has not yet
        // run it (or the loop thread back): no code of the program holds the loop
        StackTraceElement park = new StackTraceElement("java.util.concurrent.locks.LockSupport", "park", null, 1);
        StackTraceElement turn = new StackTraceElement("io.jasyncio.task.ThreadBody", "awaitTurn", null, 1);
        StackTraceElement body = new StackTraceElement("app.Orders", "fetch", null, 1);
        assertTrue(Watchdog.waitsForItsTurn(new StackTraceElement[] {park, turn, body}));
        assertFalse(Watchdog.waitsForItsTurn(new StackTraceElement[] {park, body, turn}), "a body parked in its own code holds the loop");
    }

    @Test
    void aHoldInAStaticInitialiserIsTheJvmWarmingUpAndIsNotCounted() {
        List<BlockedLoopReport> reports = new CopyOnWriteArrayList<>();
        java.util.logging.Logger debug = java.util.logging.Logger.getLogger("io.jasyncio.debug");
        java.util.logging.Level before = debug.getLevel();
        debug.setLevel(java.util.logging.Level.ALL); // so DEBUG records reach the capture
        try (LogCapture log = new LogCapture("io.jasyncio.debug")) {
            run(() -> {
                try (Watchdog watchdog = Watchdog.install(getRunningLoop(), 0.1, reports::add)) {
                    await(createTask(() -> SlowToInitialise.READY, "first-use"));
                }
                return null;
            });
            List<BlockedLoopReport> firstUse = reports.stream().filter(r -> r.handle().contains("name='first-use'")).toList();
            assertEquals(1, firstUse.size(), "the listener still hears of it: " + reports);
            assertTrue(WarmUp.isWarmUp(firstUse.getFirst().stack()), firstUse.getFirst().toString());
            assertEquals(List.of(), log.containing(java.util.logging.Level.WARNING, "first-use"), "no warning: " + log.messages());
            assertEquals(1, log.containing(java.util.logging.Level.FINE, "the JVM warming up (class loading, initialisation), "
                    + "not counted").size(), log.messages().toString());
        } finally {
            debug.setLevel(before);
        }
    }

    @Test
    void aCpuBoundHandleIsCaughtInItsOwnFrameAndEachEpisodeIsReportedOnce() {
        List<BlockedLoopReport> reports = new CopyOnWriteArrayList<>();
        try (LogCapture ignored = new LogCapture("io.jasyncio.debug")) {
            run(() -> {
                try (Watchdog watchdog = Watchdog.install(getRunningLoop(), 0.1, reports::add)) {
                    sleep(0); // observers are picked up per iteration: watch from the next step on
                    verifySignatureOnTheCpu();
                    sleep(0); // a new step: a new episode
                    verifySignatureOnTheCpu();
                    sleep(0.05); // short steps: nothing to report
                }
                return null;
            });
        }
        // Both verify steps, each once, in their own frame (a short step descheduled past the
        // threshold on a loaded machine may be reported too, rightly, in another frame).
        long caught = reports.stream().filter(r -> r.blockingFrame() != null
                && r.blockingFrame().getMethodName().equals("verifySignatureOnTheCpu")).count();
        assertEquals(2, caught, reports.toString());
    }
}
