package io.jasyncio.net;

import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Collections;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A child's pipe lives as long as its last writer, as in asyncio: after
 * {@code (sleep 0.5; echo late) & echo early} exits, reading stdout to EOF still gets the
 * grandchild's {@code late}. Five such children at once, on every loop and engine, with the
 * {@code sun.nio.ch} export; {@link GrandchildOutputWithoutExportTest} checks the JVMs without it.
 */
@EveryLoop
@EveryEngine
@Timeout(120)
class GrandchildOutputTest {
    static final String EXPECTED = "early\nlate\n";
    static final int CHILDREN = 5;

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aGrandchildsOutputAfterTheChildExitedIsRead(String loopName) {
        assertEquals(Collections.nCopies(CHILDREN, EXPECTED),
                NetTesting.run(loopName, 20, () -> GrandchildOutput.runAtOnce(CHILDREN)));
    }
}
