package io.jasyncio;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * examples/LoggingContext.java, run as a program in a child JVM on each task engine: every line a
 * request (or its child task) logs carries that request's id, whatever ran in between, and the
 * main task's lines carry none.
 */
@Timeout(120)
class LoggingContextExampleTest {
    private static final Path EXAMPLE = Path.of(System.getProperty("user.dir")).getParent()
            .resolve("examples/LoggingContext.java");
    private static final Pattern REQUEST_LINE = Pattern.compile("\\[(.*)] (req-\\d) .*");

    @ParameterizedTest
    @ValueSource(strings = {"continuation", "threads"})
    void everyLineCarriesTheIdOfTheRequestThatLoggedIt(String engine) throws Exception {
        assertTrue(Files.isRegularFile(EXAMPLE), EXAMPLE + " is missing");
        List<String> command = new ArrayList<>(List.of(new File(System.getProperty("java.home"), "bin/java").getPath()));
        if (engine.equals("continuation")) {
            command.addAll(List.of("--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED"));
        }
        command.addAll(List.of("-Djasyncio.engine=" + engine, "-cp", System.getProperty("java.class.path"), EXAMPLE.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);

        List<String> lines = out.lines().filter(l -> l.startsWith("[")).toList();
        assertEquals("[-] serving 3 requests", lines.getFirst(), out);
        assertEquals("[-] served [req-1, req-2, req-3]", lines.getLast(), out);
        int requestLines = 0;
        for (String line : lines.subList(1, lines.size() - 1)) {
            Matcher m = REQUEST_LINE.matcher(line);
            assertTrue(m.matches(), line);
            assertEquals(m.group(2), m.group(1), "the logging context of: " + line);
            requestLines++;
        }
        assertEquals(9, requestLines, "3 lines per request (started, child, answered): " + out);
    }
}
