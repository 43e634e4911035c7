package io.jasyncio.net;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.jasyncio.net.GrandchildOutputTest.CHILDREN;
import static io.jasyncio.net.GrandchildOutputTest.EXPECTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link GrandchildOutputTest}'s contract in child JVMs without the {@code sun.nio.ch} export, on
 * both task engines: there the JDK cannot name a pipe's fd, and pumping from the JDK's own
 * process streams (closed when the child exits) would lose the grandchild's output. Each child
 * JVM chooses its own engine, so this runs once, not on every loop and engine.
 */
@Timeout(120)
class GrandchildOutputWithoutExportTest {
    /** {@code engine}: "continuation" (with the jdk.internal.vm export) or "threads" (no export at all). */
    @ParameterizedTest
    @ValueSource(strings = {"continuation", "threads"})
    void withoutTheSunNioChExportTheChildsPipesAreStillTheLoopsOwn(String engine) throws Exception {
        List<String> command = new ArrayList<>(List.of(new File(System.getProperty("java.home"), "bin/java").getPath()));
        if (engine.equals("continuation")) {
            command.addAll(List.of("--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED"));
        }
        command.addAll(List.of("-Djasyncio.engine=" + engine, "-cp", System.getProperty("java.class.path"),
                GrandchildOutput.class.getName(), "nio", String.valueOf(CHILDREN)));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try {
            output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not exit");
        } finally {
            child.destroyForcibly();
        }
        assertEquals(0, child.exitValue(), output);
        List<String> outputs = output.lines().filter(l -> l.startsWith("output ")).toList();
        assertEquals(CHILDREN, outputs.size(), output);
        for (String one : outputs) {
            assertEquals("output " + EXPECTED.replace("\n", "\\n"), one, output);
        }
        assertTrue(output.contains("wiring direct\n"), "the child's pipes are the loop's own: " + output);
    }
}
