package io.jasyncio.debug;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.util.ResourceWarnings;
import io.jasyncio.task.Tasks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import static io.jasyncio.Asyncio.allTasks;
import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.currentTask;
import static io.jasyncio.Asyncio.gather;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.shield;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** In debug mode, futures and tasks remember where they were created, and every report shows it. */
@Timeout(60)
@EveryEngine
class CreationStackTest {

    @Test
    void futuresRecordWhereTheyWereCreatedOnlyInDebugMode() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            assertNull(loop.createFuture().creationStack());
            loop.setDebug(true);
            Future<Object> future = loop.createFuture();
            StackTraceElement top = future.creationStack()[0];
            assertEquals(CreationStackTest.class.getName(), top.getClassName());
            assertEquals("futuresRecordWhereTheyWereCreatedOnlyInDebugMode", top.getMethodName());
            assertTrue(future.toString().endsWith(" created at " + top + ">"), future.toString());
        }
    }

    @Test
    void tasksTheCombinatorsMakeFromBodiesRecordTheCallerNotTheLibrary() {
        Object[] tops = run(() -> {
            Future<List<String>> both = gather(() -> "a", () -> "b");
            Future<String> shielded = shield(() -> "c");
            var tasks = allTasks().stream()
                    .filter(t -> t != currentTask()).toList();
            await(both);
            await(shielded);
            return tasks.stream().map(t -> t.creationStack()[0].getClassName()).toArray();
        }, true);
        assertEquals(3, tops.length, Arrays.toString(tops));
        for (Object top : tops) {
            assertTrue(top.toString().startsWith(CreationStackTest.class.getName()), "created in this test: " + top);
        }
    }

    private static void failAndForget(EventLoop loop) {
        loop.createFuture().setException(new IllegalStateException("nobody looked"));
    }

    @Test
    void aNeverRetrievedExceptionIsReportedWithWhereTheFutureWasCreated() {
        List<Map<String, Object>> reports = new CopyOnWriteArrayList<>();
        try (EventLoop loop = EventLoops.newEventLoop(); LogCapture log = new LogCapture("io.jasyncio.loop")) {
            loop.setDebug(true);
            loop.setExceptionHandler((l, context) -> {
                reports.add(context);
                l.defaultExceptionHandler(context);
            });
            failAndForget(loop);
            collectUntil(loop, () -> !reports.isEmpty());
            Map<String, Object> report = reports.getFirst();
            assertEquals("Future exception was never retrieved", report.get("message"));
            assertTrue(String.valueOf(report.get("future")).contains("created at " + CreationStackTest.class.getName()
                    + ".failAndForget("), report.toString());
            StackTraceElement[] stack = (StackTraceElement[]) report.get("source_traceback");
            assertEquals("failAndForget", stack[0].getMethodName(), Arrays.toString(stack));
            String logged = log.containing("Future exception was never retrieved").getFirst();
            assertTrue(logged.contains("Object created at (most recent call first):\n\tat " + stack[0]), logged);
        }
    }

    private static void startAndAbandon(EventLoop loop) {
        Tasks.create(loop, () -> await(loop.createFuture()), "abandoned", null); // waits forever
    }

    @Test
    void aTaskDestroyedWhilePendingIsReportedWithWhereItWasCreated() {
        List<Map<String, Object>> reports = new CopyOnWriteArrayList<>();
        try (EventLoop loop = EventLoops.newEventLoop()) {
            loop.setDebug(true);
            loop.setExceptionHandler((l, context) -> reports.add(context));
            startAndAbandon(loop);
            collectUntil(loop, () -> !reports.isEmpty());
            Map<String, Object> report = reports.getFirst();
            assertEquals("Task was destroyed but it is pending!", report.get("message"));
            assertTrue(String.valueOf(report.get("task")).startsWith("<Task pending name='abandoned' coro="), report.toString());
            StackTraceElement[] stack = (StackTraceElement[]) report.get("source_traceback");
            assertEquals("startAndAbandon", stack[0].getMethodName(), Arrays.toString(stack));
        }
    }

    private static void openAndForget(String description) {
        ResourceWarnings.track(new Object(), description, true);
    }

    private static void openAndClose(String description) {
        ResourceWarnings.track(new Object(), description, false).closed();
    }

    private static void forgetALoop() {
        EventLoops.newEventLoop();
    }

    @Test
    void unclosedResourcesAreReportedWhenCollectedAndClosedOnesAreNot() {
        try (LogCapture log = new LogCapture("io.jasyncio.resources"); EventLoop loop = EventLoops.newEventLoop()) {
            openAndClose("transport <closed properly>");
            openAndForget("transport <leaked>");
            forgetALoop();
            collectUntil(loop, () -> !log.containing("unclosed transport <leaked>").isEmpty()
                    && !log.containing("unclosed event loop <" + EventLoops.defaultLoopName() + "@").isEmpty());
            String leaked = log.containing("unclosed transport <leaked>").getFirst();
            assertTrue(leaked.contains("\tat " + CreationStackTest.class.getName() + ".openAndForget("), leaked);
            assertTrue(log.containing("closed properly").isEmpty(), log.messages().toString());
        }
    }

    /** Collects garbage and turns {@code loop} (where the reports land) until {@code done}, a bounded number of times. */
    private static void collectUntil(EventLoop loop, BooleanSupplier done) {
        for (int i = 0; i < io.jasyncio.testing.Collect.MAX_COLLECTIONS && !done.getAsBoolean(); i++) {
            System.gc();
            loop.callLater(0.02, loop::stop);
            loop.runForever();
        }
        assertTrue(done.getAsBoolean(), "nothing was reported after " + io.jasyncio.testing.Collect.MAX_COLLECTIONS + " collections");
    }
}
