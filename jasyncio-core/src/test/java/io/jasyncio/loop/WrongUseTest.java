package io.jasyncio.loop;

import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Wrong use of a loop gets a clear error at once, never a hang. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@EveryLoop
class WrongUseTest {

    private static void assertFailsSaying(Class<? extends Throwable> type, String words, Executable action) {
        Throwable t = assertThrows(type, action);
        assertNotNull(t.getMessage());
        assertTrue(t.getMessage().contains(words), "message '" + t.getMessage() + "' should say '" + words + "'");
    }

    @Test
    void aClosedLoopRefusesEverything() {
        EventLoop loop = EventLoops.newEventLoop();
        loop.close();
        loop.close(); // idempotent
        assertTrue(loop.isClosed());
        assertFailsSaying(IllegalStateException.class, "closed", () -> loop.callSoon(() -> { }));
        assertFailsSaying(IllegalStateException.class, "closed", () -> loop.callLater(1, () -> { }));
        assertFailsSaying(IllegalStateException.class, "closed", () -> loop.callAt(loop.time(), () -> { }));
        assertFailsSaying(IllegalStateException.class, "closed", () -> loop.callSoonThreadsafe(() -> { }));
        assertFailsSaying(IllegalStateException.class, "closed", loop::runForever);
        assertFailsSaying(IllegalStateException.class, "closed", () -> loop.runUntilComplete(loop.createFuture()));
    }

    @Test
    void runForeverOnARunningLoopFails() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            AtomicReference<Throwable> error = new AtomicReference<>();
            loop.callSoon(() -> {
                error.set(assertThrows(IllegalStateException.class, loop::runForever));
                loop.stop();
            });
            loop.runForever();
            assertTrue(error.get().getMessage().contains("already running"), error.get().getMessage());
            assertFalse(loop.isRunning());
        }
    }

    @Test
    void closingARunningLoopFails() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            AtomicReference<Throwable> error = new AtomicReference<>();
            loop.callSoon(() -> {
                error.set(assertThrows(IllegalStateException.class, loop::close));
                loop.stop();
            });
            loop.runForever();
            assertTrue(error.get().getMessage().contains("running"), error.get().getMessage());
        }
    }

    @Test
    void aSecondLoopCannotRunOnTheSameThread() {
        try (EventLoop outer = EventLoops.newEventLoop(); EventLoop inner = EventLoops.newEventLoop()) {
            AtomicReference<Throwable> error = new AtomicReference<>();
            AtomicReference<Throwable> error2 = new AtomicReference<>();
            outer.callSoon(() -> {
                error.set(assertThrows(IllegalStateException.class, inner::runForever));
                error2.set(assertThrows(IllegalStateException.class, () -> inner.runUntilComplete(inner.createFuture())));
                outer.stop();
            });
            outer.runForever();
            assertTrue(error.get().getMessage().contains("another loop"), error.get().getMessage());
            assertTrue(error2.get().getMessage().contains("another loop"), error2.get().getMessage());
            assertFalse(inner.isRunning());
            // and the inner loop still works afterwards, on its own
            inner.callSoon(inner::stop);
            inner.runForever();
        }
    }

    @Test
    void runUntilCompleteRefusesAnotherLoopsFuture() {
        try (EventLoop a = EventLoops.newEventLoop(); EventLoop b = EventLoops.newEventLoop()) {
            Future<String> foreign = b.createFuture();
            foreign.setResult("x");
            assertFailsSaying(IllegalArgumentException.class, "different loop", () -> a.runUntilComplete(foreign));
            assertFalse(a.isRunning());
        }
    }

    @Test
    void runUntilCompleteReportsALoopStoppedEarly() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            Future<String> never = loop.createFuture();
            loop.callSoon(loop::stop);
            assertFailsSaying(IllegalStateException.class, "stopped before", () -> loop.runUntilComplete(never));
            // the stop-callback was removed: completing the future later does not stop a later run early
            loop.callSoon(() -> never.setResult("done"));
            assertEquals("done", loop.runUntilComplete(never));
        }
    }

    @Test
    void loopThreadOnlyCallsFromAForeignThreadFailWhileTheLoopRuns() throws Exception {
        try (LoopOnThread running = new LoopOnThread()) {
            EventLoop loop = running.loop;
            assertFailsSaying(IllegalStateException.class, "callSoonThreadsafe", () -> loop.callSoon(() -> { }));
            assertFailsSaying(IllegalStateException.class, "callSoonThreadsafe", () -> loop.callLater(0.1, () -> { }));
            assertFailsSaying(IllegalStateException.class, "callSoonThreadsafe", loop::stop); // would be lost: the loop sleeps on
            Throwable t = assertThrows(Throwable.class, () -> loop.runForever());
            assertInstanceOf(IllegalStateException.class, t);
            assertEquals(0, loop.readyCount());
            assertEquals(0, loop.scheduledTimerCount());
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            loop.callSoonThreadsafe(() -> ranOn.set(Thread.currentThread()));
            running.stopAndJoin(java.time.Duration.ofSeconds(10));
            assertEquals(running.thread, ranOn.get());
        }
    }
}
