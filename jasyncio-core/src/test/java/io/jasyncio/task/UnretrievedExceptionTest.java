package io.jasyncio.task;

import io.jasyncio.debug.LogCapture;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A failure nobody retrieved is reported once, whatever the collector does: when its future is
 * collected on a running loop, and at the latest when the loop closes (the end of {@code run}).
 * The context is asyncio's (message, exception, future), debug mode or not.
 */
@EveryLoop
@EveryEngine
class UnretrievedExceptionTest {
    private static final int MAX_COLLECTIONS = 100;

    @Test
    void aFailedTaskNobodyAwaitsIsLoggedWhenRunEnds() {
        try (LogCapture log = new LogCapture("io.jasyncio.loop")) {
            // The program: it used to return normally and log nothing.
            run(() -> {
                createTask(() -> {
                    throw new IllegalStateException("boom");
                });
                sleep(0.1);
                return null;
            });
            List<String> logged = log.containing("Task exception was never retrieved");
            assertEquals(1, logged.size(), log.messages().toString());
            assertTrue(logged.getFirst().contains("future: <Task finished name='Task-"), logged.getFirst());
        }
    }

    @Test
    void theReportCarriesAsynciosKeysOutsideDebugMode() {
        List<Map<String, Object>> reports = new CopyOnWriteArrayList<>();
        IllegalStateException boom = new IllegalStateException("boom");
        run(() -> {
            getRunningLoop().setExceptionHandler((loop, context) -> reports.add(context));
            Task<Void> lost = createTask(() -> {
                throw boom;
            });
            sleep(0);
            sleep(0);
            assertTrue(lost.isDone());
            return null;
        });
        assertEquals(1, reports.size(), reports.toString());
        Map<String, Object> report = reports.getFirst();
        assertEquals(List.of("message", "exception", "future"), List.copyOf(report.keySet()));
        assertEquals("Task exception was never retrieved", report.get("message"));
        assertSame(boom, report.get("exception"));
        assertTrue(String.valueOf(report.get("future")).startsWith("<Task finished name='Task-"), report.toString());
    }

    @Test
    void aFutureFailedOnALoopThatClosesIsReportedAtClose() {
        List<Map<String, Object>> reports = new CopyOnWriteArrayList<>();
        EventLoop loop = EventLoops.newEventLoop();
        loop.setExceptionHandler((l, context) -> reports.add(context));
        Future<String> failed = loop.createFuture();
        failed.setException(new IllegalStateException("nobody looked"));
        assertEquals(List.of(), reports, "nothing yet: the future may still be retrieved");
        loop.close();
        assertEquals(1, reports.size(), reports.toString());
        assertEquals(List.of("message", "exception", "future"), List.copyOf(reports.getFirst().keySet()));
        assertEquals("Future exception was never retrieved", reports.getFirst().get("message"));
        assertTrue(String.valueOf(reports.getFirst().get("future")).startsWith("<Future finished exception="),
                reports.toString());
        loop.close();
        assertEquals(1, reports.size(), "reported once");
    }

    @Test
    void theHandlerCalledAtCloseSeesAnOpenLoopItMayScheduleOn() {
        List<Boolean> closedWhenReported = new CopyOnWriteArrayList<>();
        List<Throwable> schedulingFailures = new CopyOnWriteArrayList<>();
        EventLoop loop = EventLoops.newEventLoop();
        loop.setExceptionHandler((l, context) -> {
            closedWhenReported.add(l.isClosed());
            try {
                l.callSoon(() -> { });
            } catch (RuntimeException e) {
                schedulingFailures.add(e);
            }
        });
        Future<Void> failed = loop.createFuture();
        failed.setException(new IllegalStateException("nobody looked"));
        loop.close();
        assertEquals(List.of(false), closedWhenReported, "reported before the loop is marked closed");
        assertEquals(List.of(), schedulingFailures);
        assertTrue(loop.isClosed());
    }

    @Test
    void retrievedExceptionsAreNotReported() {
        List<Map<String, Object>> reports = new CopyOnWriteArrayList<>();
        run(() -> {
            getRunningLoop().setExceptionHandler((loop, context) -> reports.add(context));
            Task<Void> awaited = createTask(() -> {
                throw new IllegalStateException("awaited");
            });
            Task<Void> inspected = createTask(() -> {
                throw new IllegalStateException("inspected");
            });
            assertThrows(IllegalStateException.class, () -> await(awaited));
            sleep(0);
            assertEquals("inspected", inspected.exception().getMessage());
            return null;
        });
        assertEquals(List.of(), reports);
    }

    private static void failAndForget(EventLoop loop) {
        loop.createFuture().setException(new IllegalStateException("collected"));
    }

    @Test
    void aFailedFutureCollectedOnARunningLoopIsReportedThenAndNotAgainAtClose() {
        List<Map<String, Object>> reports = new CopyOnWriteArrayList<>();
        EventLoop loop = EventLoops.newEventLoop();
        try {
            loop.setExceptionHandler((l, context) -> reports.add(context));
            failAndForget(loop);
            for (int i = 0; i < MAX_COLLECTIONS && reports.isEmpty(); i++) {
                System.gc();
                Future<Void> tick = loop.createFuture();
                loop.callLater(0.01, () -> tick.setResult(null)); // the cleaner reports through callSoonThreadsafe
                loop.runUntilComplete(tick);
            }
            assertEquals(1, reports.size(), "reported while the loop runs, once collected");
            assertEquals(List.of("message", "exception", "future"), List.copyOf(reports.getFirst().keySet()));
        } finally {
            loop.close();
        }
        assertEquals(1, reports.size(), "not again when the loop closes");
        assertFalse(reports.getFirst().get("future") == null);
    }
}
