package io.jasyncio.net;

import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A child's pipe lives as long as its last writer, as in asyncio: after
 * {@code (sleep 0.5; echo late) & echo early} exits, reading stdout to EOF still gets the
 * grandchild's {@code late}. Here (every loop, with the {@code sun.nio.ch} export), and in child
 * JVMs without the export, on both task engines: there the JDK cannot name a pipe's fd, and
 * pumping from the JDK's own process streams (closed when the child exits) would lose it.
 */
@EveryLoop
@EveryEngine
@Timeout(120)
class GrandchildOutputTest {
    private static final String EXPECTED = "early\nlate\n";
    private static final int RUNS = 5;

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aGrandchildsOutputAfterTheChildExitedIsRead(String loopName) {
        for (int i = 0; i < RUNS; i++) {
            assertEquals(EXPECTED, NetTesting.run(loopName, 20, GrandchildOutput::run), "run " + i);
        }
    }

    /** {@code engine}: "continuation" (with the jdk.internal.vm export) or "threads" (no export at all). */
    @ParameterizedTest
    @ValueSource(strings = {"continuation", "threads"})
    void withoutTheSunNioChExportToo(String engine) throws Exception {
        List<String> command = new ArrayList<>(List.of(new File(System.getProperty("java.home"), "bin/java").getPath()));
        if (engine.equals("continuation")) {
            command.addAll(List.of("--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED"));
        }
        command.addAll(List.of("-Djasyncio.engine=" + engine, "-cp", System.getProperty("java.class.path"),
                GrandchildOutput.class.getName(), "nio", String.valueOf(RUNS)));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try {
            output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not exit");
        } finally {
            child.destroyForcibly();
        }
        assertEquals(0, child.exitValue(), output);
        List<String> runs = output.lines().filter(l -> l.startsWith("output ")).toList();
        assertEquals(RUNS, runs.size(), output);
        for (String run : runs) {
            assertEquals("output " + EXPECTED.replace("\n", "\\n"), run, output);
        }
        assertTrue(output.contains("wiring direct\n"), "the child's pipes are the loop's own: " + output);
    }
}
