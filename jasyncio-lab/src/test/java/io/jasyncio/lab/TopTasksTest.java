package io.jasyncio.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code top PID}'s task rows: counts per loop, and the busiest tasks with where they are suspended. */
class TopTasksTest {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void showsTaskCountsAndTheBusiestTasks(@TempDir Path classes) throws Exception {
        ExampleJvm.compile(classes, "doctor-service/OrderService.java");
        Process service = ExampleJvm.java(classes, "threads", List.of("-Djasyncio.doctor=jfr"), "OrderService", "--seconds", "60")
                .redirectOutput(classes.resolve("service.log").toFile()).start();
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            int code = new CommandLine(new TopCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8)))
                    .execute(Long.toString(service.pid()), "--iterations", "6");
            String output = bytes.toString(StandardCharsets.UTF_8);
            assertEquals(0, code, output);
            assertTrue(Pattern.compile("(?m)^loop thread +tasks +new/s +done/s$").matcher(output).find(), output);
            assertTrue(Pattern.compile("(?m)^main +\\d+ +[0-9,]+ +[0-9,-]+$").matcher(output).find(),
                    "the task counts of the loop on thread main: " + output);
            // the four order clients step most: each sleeps 2 ms between requests
            assertTrue(Pattern.compile("(?m)^main +0x\\p{XDigit}+ +client-\\d +\\w+ +\\d+ +[0-9.]+% +"
                    + ".*OrderService.client").matcher(output).find(), "a busy client task and where it waits: " + output);
        } finally {
            service.destroyForcibly().waitFor();
        }
    }
}
