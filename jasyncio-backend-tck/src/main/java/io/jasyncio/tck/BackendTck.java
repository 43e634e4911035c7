package io.jasyncio.tck;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * The backend test kit: runs core's contract suites ({@code @EveryLoop}, from core's test jar,
 * which this artifact brings) against a loop backend module on the module path, as a third
 * party's backend is used: core binds it through its own {@code uses EventLoopProvider}, nothing
 * names it, {@code --add-modules io.jasyncio.core} alone resolves it, and
 * {@code -Djasyncio.loop=NAME} makes it every suite's loop. Core's test classes are patched into
 * core's module, as a module's own tests run; JUnit sits on the class path. Call it from a test
 * of the backend module (its surefire class path holds core, the suites and JUnit):
 *
 * <pre>{@code
 * BackendTck.Result r = BackendTck.run("poll", List.of(Path.of("target/classes")), List.of(...flags), BackendTck.ALL);
 * assertTrue(r.passed(), r.output());
 * }</pre>
 */
public final class BackendTck {
    /**
     * Core's suites that assume the class path, left out of a module-path run: they start child
     * JVMs from {@code java.class.path} (engine selection, SIGINT, the graceful-shutdown example,
     * descriptor exhaustion), or check a creation site's stack frame as printed for a class on the
     * class path ({@code UnclosedTransportTest}). A backend module runs them on the class path
     * with surefire's every-loop execution (core's test jar in {@code dependenciesToScan}).
     */
    public static final Set<String> CLASS_PATH_ONLY = Set.of("io.jasyncio.task.EngineSelectionTest",
            "io.jasyncio.task.SigintTest", "io.jasyncio.net.GracefulShutdownExampleTest", "io.jasyncio.net.FdExhaustionTest",
            "io.jasyncio.net.UnclosedTransportTest");

    /** Every top-level test class of core's test jar but {@link #CLASS_PATH_ONLY} (the run keeps the every-loop ones). */
    public static final Predicate<String> ALL = suite -> !CLASS_PATH_ONLY.contains(suite);

    private BackendTck() {
    }

    /**
     * What a run found: the child JVM's exit code, its summary counts and its whole output.
     *
     * @param exitCode   the JVM's exit code (-1: it did not end in time and was killed)
     * @param found      tests found; {@code succeeded}, {@code failed} likewise (-1 without a summary)
     * @param succeeded  tests that passed
     * @param failed     tests that failed
     * @param output     what the JVM printed: the providers and their modules, failures, the summary
     */
    public record Result(int exitCode, int found, int succeeded, int failed, String output) {
        /** True when the JVM ended normally, with a summary, no failure and at least one test run. */
        public boolean passed() {
            return exitCode == 0 && failed == 0 && succeeded > 0;
        }

        /** True when the output shows provider {@code name} loaded from the named module {@code module}. */
        public boolean providerCameFrom(String name, String module) {
            return output.contains("provider " + name + " from module " + module);
        }
    }

    /**
     * Runs the every-loop tests of core's suites that {@code suites} accepts (by class name) on the
     * loop {@code loopName}, in a new JVM: {@code backendModules} (the backend and what it needs
     * besides core, e.g. jasyncio-native) and core on the module path, {@code jvmFlags} added
     * (native access, {@code --add-exports java.base/sun.nio.ch=io.jasyncio.core}). Gives up after
     * {@code minutes}.
     */
    public static Result run(String loopName, List<Path> backendModules, List<String> jvmFlags, Predicate<String> suites,
                             int minutes) throws IOException, InterruptedException {
        List<Path> classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator)).map(Path::of).toList();
        Path core = only(classPath, entry -> has(entry, "module-info.class") && has(entry, "io/jasyncio/loop/EventLoop.class"));
        Path coreTests = only(classPath, entry -> has(entry, "io/jasyncio/loop/spi/PollerContract.class"));
        List<Path> modules = backendModules.stream().map(Path::toAbsolutePath).toList();
        List<String> rest = classPath.stream()
                .filter(e -> !e.equals(core) && !e.equals(coreTests) && !modules.contains(e.toAbsolutePath()))
                .map(Path::toString).toList();
        List<String> modulePath = new ArrayList<>(List.of(core.toString()));
        modules.forEach(m -> modulePath.add(m.toString()));

        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--module-path", String.join(File.pathSeparator, modulePath),
                "--add-modules", "io.jasyncio.core", // the backend comes in by service binding alone
                "--patch-module", "io.jasyncio.core=" + coreTests,
                "--add-reads", "io.jasyncio.core=ALL-UNNAMED,java.logging,jdk.management", // the patched-in tests see JUnit, capture logs, count fds
                "--add-exports", "java.base/jdk.internal.vm=io.jasyncio.core",
                "-Xss4m", "-Djasyncio.loop=" + loopName));
        command.addAll(jvmFlags);
        for (String pkg : packagesOf(coreTests)) {
            command.addAll(List.of("--add-opens", "io.jasyncio.core/" + pkg + "=ALL-UNNAMED")); // JUnit reflects into them
        }
        command.addAll(List.of("-cp", String.join(File.pathSeparator, rest), TckMain.class.getName()));
        List<String> selected = suitesIn(coreTests).stream().filter(suites).toList();
        if (selected.isEmpty()) {
            throw new IllegalArgumentException("no suite of " + coreTests + " selected");
        }
        command.addAll(selected);

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
        boolean ended = child.waitFor(minutes, TimeUnit.MINUTES);
        if (!ended) {
            child.destroyForcibly();
        }
        reader.join(TimeUnit.SECONDS.toMillis(30));
        String out = output.toString();
        Matcher summary = Pattern.compile("summary: found (\\d+), succeeded (\\d+), failed (\\d+)").matcher(out);
        boolean summarised = summary.find();
        return new Result(ended ? child.exitValue() : -1, summarised ? Integer.parseInt(summary.group(1)) : -1,
                summarised ? Integer.parseInt(summary.group(2)) : -1, summarised ? Integer.parseInt(summary.group(3)) : -1,
                ended ? out : out + "\n(killed after " + minutes + " minutes)");
    }

    /** Every top-level {@code *Test} class of core's test jar. */
    private static List<String> suitesIn(Path coreTests) throws IOException {
        List<String> suites = new ArrayList<>();
        for (String entry : entriesOf(coreTests)) {
            if (entry.matches("io/jasyncio/([a-z]+/)*[A-Za-z0-9]+Test\\.class")) {
                suites.add(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
            }
        }
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
        if (found.size() != 1) {
            throw new IllegalStateException("not one class-path entry but " + found + " in " + classPath);
        }
        return found.getFirst();
    }
}
