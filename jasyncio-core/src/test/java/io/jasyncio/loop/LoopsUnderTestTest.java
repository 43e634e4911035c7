package io.jasyncio.loop;

import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The suites really run on the loop this JVM tests: a misconfigured rerun would quietly test nio twice. */
@EveryLoop
class LoopsUnderTestTest {

    @Test
    void theDefaultLoopIsTheLoopUnderTest() {
        String expected = System.getProperty(LoopsUnderTest.LOOP_PROPERTY, "nio");
        try (EventLoop loop = EventLoops.newEventLoop()) {
            // the loop's class is named for it: nio -> NioEventLoop, io_uring -> IoUringEventLoop
            assertTrue(loop.getClass().getSimpleName().toLowerCase(Locale.ROOT).startsWith(expected.replace("_", "")),
                    "-D" + LoopsUnderTest.LOOP_PROPERTY + "=" + expected + " made a " + loop.getClass().getName());
        }
        if (System.getProperty(LoopsUnderTest.LOOPS_PROPERTY) == null && System.getProperty(LoopsUnderTest.LOOP_PROPERTY) != null) {
            assertEquals(java.util.List.of(expected), LoopsUnderTest.names(), "the parameterized suites follow it too");
        }
    }
}
