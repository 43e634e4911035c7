package io.jasyncio.junit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code @AsyncTest} under JUnit's console launcher ({@code junit-platform-console-standalone},
 * whose manifest carries the Platform's version, 1.11.4, not Jupiter's): a child JVM runs
 * {@link ConsoleSample} with the launcher's own JUnit and nothing of this build's JUnit.
 */
@Timeout(120)
class ConsoleLauncherTest {

    /** This module's classes (main and test) and the library's: none of the JUnit jars the build runs on. */
    private static String classPathWithoutJUnit() throws Exception {
        List<String> entries = new java.util.ArrayList<>();
        for (Class<?> c : List.of(ConsoleSample.class, AsyncTest.class, io.jasyncio.Asyncio.class)) {
            entries.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        }
        return String.join(File.pathSeparator, entries);
    }

    @Test
    void anAsyncTestPassesUnderTheConsoleLauncher() throws Exception {
        Path launcher = Path.of(System.getProperty("console.launcher"));
        assertTrue(Files.isRegularFile(launcher), "the console launcher jar (copied by the build): " + launcher);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-jar", launcher.toString(), "execute", "--disable-banner",
                "--details=summary", "--class-path", classPathWithoutJUnit(), "--select-class", ConsoleSample.class.getName());
        Path log = Files.createTempFile("console-launcher", ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertTrue(process.waitFor(90, TimeUnit.SECONDS), "the console launcher did not finish");
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertEquals(0, process.exitValue(), output);
            assertTrue(output.contains("1 tests successful"), output);
            assertTrue(output.contains("0 tests failed"), output);
            assertFalse(output.contains("needs JUnit Jupiter"), output);
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
