package io.jasyncio.modulepath;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The counting backend is a module on the module path, as a third party's would be: core binds
 * it through its own {@code uses EventLoopProvider}, with no name of it anywhere in core and
 * nothing but {@code --add-modules io.jasyncio.core} to resolve it, and core's loop suites and the
 * network suites that use every poller operation pass on it there ({@code -Djasyncio.loop=counting}).
 * Core's test classes are patched into core's module, as a module's own tests run; JUnit sits on
 * the class path.
 */
class ModulePathContractTest {
    /** Core's every-loop suites that exercise the poller: its loop package, and these network suites. */
    private static final List<String> NETWORK_SUITES = List.of("io.jasyncio.net.TcpEchoTest", "io.jasyncio.net.ServerTest",
            "io.jasyncio.net.HalfCloseTest", "io.jasyncio.net.FlowControlTest", "io.jasyncio.net.UdpTest");

    @Test
    void coresContractSuitesPassOnTheCountingBackendPluggedInOnTheModulePath() throws Exception {
        List<Path> classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator)).map(Path::of).toList();
        Path core = only(classPath, entry -> has(entry, "module-info.class") && has(entry, "io/jasyncio/loop/EventLoop.class"));
        Path coreTests = only(classPath, entry -> has(entry, "io/jasyncio/loop/spi/PollerContract.class"));
        Path backend = Path.of("target", "classes").toAbsolutePath();
        assertTrue(Files.exists(backend.resolve("module-info.class")), "the counting backend is a module: " + backend);
        List<String> rest = classPath.stream().filter(e -> !e.equals(core) && !e.equals(coreTests) && !e.toAbsolutePath().equals(backend))
                .map(Path::toString).toList();

        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--module-path", core + File.pathSeparator + backend,
                "--add-modules", "io.jasyncio.core", // the backend comes in by service binding alone
                "--patch-module", "io.jasyncio.core=" + coreTests,
                "--add-reads", "io.jasyncio.core=ALL-UNNAMED,java.logging", // the patched-in tests see JUnit, and capture logs
                "--add-exports", "java.base/jdk.internal.vm=io.jasyncio.core",
                "-Xss4m", "-Djasyncio.loop=counting"));
        for (String pkg : packagesOf(coreTests)) {
            command.addAll(List.of("--add-opens", "io.jasyncio.core/" + pkg + "=ALL-UNNAMED")); // JUnit reflects into them
        }
        command.addAll(List.of("-cp", String.join(File.pathSeparator, rest), ModulePathSuite.class.getName()));
        command.addAll(suitesIn(coreTests));

        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        child.getOutputStream().close();
        StringBuilder output = new StringBuilder();
        Thread reader = Thread.ofPlatform().start(() -> {
            try {
                output.append(new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                output.append("(output lost: ").append(e).append(')');
            }
        });
        boolean ended = child.waitFor(5, TimeUnit.MINUTES);
        if (!ended) {
            child.destroyForcibly();
        }
        reader.join(TimeUnit.SECONDS.toMillis(30));
        String out = output.toString();
        assertTrue(ended, "the module-path run did not end in 5 minutes:\n" + out);
        assertTrue(out.contains("provider counting from module io.jasyncio.backendtest"),
                "the counting provider came from its module on the module path:\n" + out);
        Matcher summary = Pattern.compile("summary: found (\\d+), succeeded (\\d+), failed (\\d+)").matcher(out);
        assertTrue(summary.find(), "no summary:\n" + out);
        assertEquals(0, child.exitValue(), out);
        assertEquals("0", summary.group(3), out);
        assertTrue(Integer.parseInt(summary.group(2)) >= 100, "the suites ran (succeeded " + summary.group(2) + "):\n" + out);
    }

    /** The test classes to run: every top-level {@code *Test} of the loop package, and the network suites. */
    private static List<String> suitesIn(Path coreTests) throws IOException {
        List<String> suites = new ArrayList<>();
        for (String entry : entriesOf(coreTests)) {
            if (entry.matches("io/jasyncio/loop/[A-Za-z0-9]+Test\\.class")) {
                suites.add(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
            }
        }
        assertTrue(suites.size() >= 10, "found core's loop suites in " + coreTests + ": " + suites);
        suites.addAll(NETWORK_SUITES);
        return suites;
    }

    private static TreeSet<String> packagesOf(Path coreTests) throws IOException {
        TreeSet<String> packages = new TreeSet<>();
        for (String entry : entriesOf(coreTests)) {
            int slash = entry.lastIndexOf('/');
            if (entry.endsWith(".class") && slash > 0) {
                packages.add(entry.substring(0, slash).replace('/', '.'));
            }
        }
        return packages;
    }

    /** The paths inside a class-path entry (a directory or a jar), '/'-separated. */
    private static List<String> entriesOf(Path entry) throws IOException {
        if (Files.isDirectory(entry)) {
            try (Stream<Path> files = Files.walk(entry)) {
                return files.filter(Files::isRegularFile).map(f -> entry.relativize(f).toString().replace(File.separatorChar, '/')).toList();
            }
        }
        try (ZipFile jar = new ZipFile(entry.toFile())) {
            return jar.stream().map(e -> e.getName()).toList();
        }
    }

    private static boolean has(Path entry, String name) {
        try {
            if (Files.isDirectory(entry)) {
                return Files.exists(entry.resolve(name));
            }
            if (!entry.toString().endsWith(".jar") || !Files.exists(entry)) {
                return false;
            }
            try (ZipFile jar = new ZipFile(entry.toFile())) {
                return jar.getEntry(name) != null;
            }
        } catch (IOException e) {
            return false;
        }
    }

    private interface EntryTest {
        boolean matches(Path entry);
    }

    private static Path only(List<Path> classPath, EntryTest test) {
        List<Path> found = classPath.stream().filter(test::matches).toList();
        assertEquals(1, found.size(), "one class-path entry: " + found + " in " + classPath);
        return found.getFirst();
    }
}
