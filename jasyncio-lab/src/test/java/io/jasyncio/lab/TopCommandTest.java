package io.jasyncio.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code top PID} on a child JVM running the example service with -Djasyncio.doctor=jfr. */
class TopCommandTest {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void showsTheLoopsOfARunningProcess(@TempDir Path classes) throws Exception {
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), "-cp",
                System.getProperty("java.class.path"), "-proc:none",
                Path.of("..", "examples", "doctor-service", "OrderService.java").toString()));
        Process service = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED", "-Djasyncio.doctor=jfr",
                "-cp", classes + File.pathSeparator + System.getProperty("java.class.path"),
                "OrderService", "--seconds", "60", "--block")
                .redirectErrorStream(true).redirectOutput(classes.resolve("service.log").toFile()).start();
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            int code = new CommandLine(new TopCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8)))
                    .execute(Long.toString(service.pid()), "--iterations", "8");
            String output = bytes.toString(StandardCharsets.UTF_8);
            assertEquals(0, code, output);
            assertTrue(Pattern.compile("(?m)^main +[0-9,-]+ +\\d+% +\\d+%").matcher(output).find(),
                    "a row for the loop on thread main: " + output);
            // --block holds the loop 300 ms about every second: the watchdog's holds, with the frame.
            assertTrue(output.contains("recently held (each hold's whole length):") && output.contains("renderReportBlocking"),
                    "the watchdog's holds with their blocking frame: " + output);
            // each hold's whole length, not the watchdog's first sighting of it (just over 100 ms)
            java.util.regex.Matcher lengths = Pattern.compile("held (\\d+) ms by").matcher(output);
            int longest = 0;
            while (lengths.find()) {
                longest = Math.max(longest, Integer.parseInt(lengths.group(1)));
            }
            assertTrue(longest >= 290, "a 300 ms hold is shown as " + longest + " ms: " + output);
            assertTrue(output.replaceAll("\\s+", " ").contains("slow: steps over 100 ms since the loop started (a running total)"),
                    "the legend says which column is a running total: " + output);
        } finally {
            service.destroyForcibly().waitFor();
        }
    }

    @Test
    void aProcessThatDoesNotExistIsAnError() {
        StandardError run = StandardError.capture(() -> new CommandLine(new TopCommand(new PrintStream(new ByteArrayOutputStream())))
                .execute(Long.toString(Integer.MAX_VALUE - 7)));
        assertEquals(2, run.exitCode());
        assertTrue(run.text().contains("jasyncio top: cannot attach to process " + (Integer.MAX_VALUE - 7)), run.text());
    }
}
