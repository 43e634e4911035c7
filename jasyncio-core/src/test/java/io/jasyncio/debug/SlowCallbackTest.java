package io.jasyncio.debug;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
@EveryEngine
class SlowCallbackTest {
    private static final Pattern SLOW_TASK_LINE = Pattern.compile(
            "Executing <Task pending name='slowpoke' coro=\\S+ lambda created at (\\S+)> took (\\d+\\.\\d{3}) seconds");

    private static void verifySignature() {
        try {
            Thread.sleep(150);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void inDebugModeASlowTaskStepIsLoggedWithTheTaskItsOriginAndADuration() {
        try (LogCapture log = new LogCapture("io.jasyncio.loop")) {
            run(() -> await(createTask(() -> {
                verifySignature();
                sleep(0.01); // the step ends suspended: the task is still pending when it is reported
                return null;
            }, "slowpoke")), true);
            List<String> lines = log.containing("Executing <Task pending name='slowpoke'");
            assertEquals(1, lines.size(), log.messages().toString());
            Matcher m = SLOW_TASK_LINE.matcher(lines.getFirst());
            assertTrue(m.matches(), lines.getFirst());
            assertTrue(m.group(1).startsWith(SlowCallbackTest.class.getName() + ".lambda$"), m.group(1));
            double took = Double.parseDouble(m.group(2));
            assertTrue(took >= 0.14 && took < 10, "took " + took);
        }
    }

    @Test
    void outOfDebugModeNothingIsLogged() {
        try (LogCapture log = new LogCapture("io.jasyncio.loop")) {
            run(() -> await(createTask(() -> {
                verifySignature();
                return null;
            }, "slowpoke")), false);
            assertTrue(log.containing("Executing").isEmpty(), log.messages().toString());
        }
    }

    @Test
    void aSlowPlainCallbackIsLoggedAsItsHandle() {
        try (LogCapture log = new LogCapture("io.jasyncio.loop"); EventLoop loop = EventLoops.newEventLoop()) {
            loop.setDebug(true);
            loop.setSlowCallbackDuration(0.05);
            loop.callSoon(SlowCallbackTest::verifySignature);
            loop.callSoon(loop::stop);
            loop.runForever();
            List<String> lines = log.containing("Executing <Handle io.jasyncio.debug.SlowCallbackTest lambda> took ");
            assertEquals(1, lines.size(), log.messages().toString());
        }
    }

    @Test
    void debugModeCanBeTurnedOnBySystemProperty() {
        String previous = System.getProperty("jasyncio.debug");
        System.setProperty("jasyncio.debug", "true");
        try (EventLoop loop = EventLoops.newEventLoop()) {
            assertTrue(loop.getDebug());
        } finally {
            if (previous == null) {
                System.clearProperty("jasyncio.debug");
            } else {
                System.setProperty("jasyncio.debug", previous);
            }
        }
        try (EventLoop loop = EventLoops.newEventLoop()) {
            assertFalse(loop.getDebug() && System.getenv("JASYNCIO_DEBUG") == null);
        }
    }
}
