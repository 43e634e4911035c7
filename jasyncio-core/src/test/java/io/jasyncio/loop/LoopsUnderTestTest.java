package io.jasyncio.loop;

import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;

/** The suites really run on the loop this JVM tests: a misconfigured rerun would quietly test nio twice. */
@EveryLoop
class LoopsUnderTestTest {

    @Test
    void theDefaultLoopIsTheLoopUnderTest() {
        String expected = System.getProperty(LoopsUnderTest.LOOP_PROPERTY, "nio");
        try (EventLoop loop = EventLoops.newEventLoop()) {
            assertEquals(expected, EventLoops.implementationOf(loop),
                    "-D" + LoopsUnderTest.LOOP_PROPERTY + "=" + expected + " made " + loop);
        }
        if (System.getProperty(LoopsUnderTest.LOOPS_PROPERTY) == null && System.getProperty(LoopsUnderTest.LOOP_PROPERTY) != null) {
            assertEquals(java.util.List.of(expected), LoopsUnderTest.names(), "the parameterized suites follow it too");
        }
    }
}
