package io.jasyncio.loop;

import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A failing callback goes to the exception handler; neither it nor a failing handler stops the loop. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@EveryLoop
class ExceptionHandlerTest {
    private final Logger loopLog = Logger.getLogger("io.jasyncio.loop");
    private Level previousLevel;

    @BeforeEach
    void silenceTheLoopLog() {
        previousLevel = loopLog.getLevel();
        loopLog.setLevel(Level.OFF); // the default handler logs; these tests provoke it on purpose
    }

    @AfterEach
    void restoreTheLoopLog() {
        loopLog.setLevel(previousLevel);
    }

    @Test
    void aFailingCallbackReachesTheHandlerAndTheLoopGoesOn() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            List<Map<String, Object>> reports = new ArrayList<>();
            List<String> ran = new ArrayList<>();
            loop.setExceptionHandler((l, context) -> {
                assertSame(loop, l);
                reports.add(context);
            });
            IllegalArgumentException boom = new IllegalArgumentException("boom");
            loop.callSoon(() -> {
                throw boom;
            });
            loop.callSoon(() -> ran.add("after callback"));
            loop.callLater(0.001, () -> {
                throw new AssertionError("an Error, too");
            });
            loop.callLater(0.002, () -> ran.add("after timer"));
            loop.callLater(0.003, loop::stop);
            loop.runForever();

            assertEquals(List.of("after callback", "after timer"), ran);
            assertEquals(2, reports.size());
            assertSame(boom, reports.get(0).get("exception"));
            assertTrue(String.valueOf(reports.get(0).get("message")).startsWith("Exception in callback"));
            assertTrue(reports.get(0).get("handle") instanceof Handle);
            assertTrue(reports.get(1).get("exception") instanceof AssertionError);
        }
    }

    @Test
    void aFailingHandlerDoesNotStopTheLoop() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            List<String> ran = new ArrayList<>();
            loop.setExceptionHandler((l, context) -> {
                ran.add("handler");
                throw new IllegalStateException("the handler broke");
            });
            loop.callSoon(() -> {
                throw new RuntimeException("callback broke");
            });
            loop.callSoon(() -> ran.add("next"));
            loop.callSoon(() -> loop.callExceptionHandler(Map.of("message", "direct")));
            loop.callSoon(() -> ran.add("last"));
            loop.callSoon(loop::stop);
            loop.runForever();
            assertEquals(List.of("handler", "next", "handler", "last"), ran);
        }
    }

    @Test
    void theDefaultHandlerLogsAndTheLoopGoesOn() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            List<String> ran = new ArrayList<>();
            loop.setExceptionHandler(null);
            loop.callSoon(() -> {
                throw new RuntimeException("nobody catches this");
            });
            loop.callSoon(() -> ran.add("next"));
            loop.callSoon(loop::stop);
            loop.runForever();
            assertEquals(List.of("next"), ran);
        }
    }
}
