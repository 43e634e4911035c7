package io.jasyncio.testing;

import org.junit.jupiter.api.Test;
import org.junit.platform.commons.annotation.Testable;
import org.junit.platform.commons.support.AnnotationSupport;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A suite that forgets its tag runs on nio with continuations only, and nothing says so: this
 * test does. The subjects that run on every loop (and those that run on every engine) are listed
 * here; a test class of theirs carries the tag or is named below with its reason.
 */
class SuiteMembershipTest {
    private static final List<String> ON_EVERY_LOOP = List.of("loop", "task", "sync", "net", "subprocess", "group", "interop");
    private static final List<String> ON_EVERY_ENGINE = List.of("task", "sync", "net", "subprocess", "group", "interop");

    /**
     * Not on every loop: nio's own poller (each loop has its own contract test) and its provider's
     * registration, a pure data structure, a signal test and a subprocess test that start their
     * own child JVMs (which choose their loop and engine), the running-loop lookup, checked on
     * a loop that is none of ours, and an await in a class initializer (a JVM runs it once).
     */
    private static final Set<String> NOT_ON_EVERY_LOOP = Set.of("io.jasyncio.loop.spi.NioPollerContractTest",
            "io.jasyncio.loop.NioProviderTest", "io.jasyncio.loop.TimerHeapPropertyTest",
            "io.jasyncio.loop.IgnoredSigintTest", "io.jasyncio.loop.RunningLoopTest",
            "io.jasyncio.net.GrandchildOutputWithoutExportTest", "io.jasyncio.task.PinnedAwaitTest");
    /**
     * Not on every engine: they choose engines themselves, or (the pinned await) cover what only
     * the continuation engine does: an await that cannot suspend.
     */
    private static final Set<String> NOT_ON_EVERY_ENGINE = Set.of("io.jasyncio.task.EngineSelectionTest",
            "io.jasyncio.net.GrandchildOutputWithoutExportTest", "io.jasyncio.task.PinnedAwaitTest");

    @Test
    void everyContractSuiteCarriesItsTags() throws Exception {
        List<String> untagged = new ArrayList<>();
        for (String subject : ON_EVERY_LOOP) {
            for (Class<?> suite : testClassesOf(subject)) {
                if (!suite.isAnnotationPresent(EveryLoop.class) && !NOT_ON_EVERY_LOOP.contains(suite.getName())) {
                    untagged.add("@EveryLoop " + suite.getName());
                }
                if (ON_EVERY_ENGINE.contains(subject) && !suite.isAnnotationPresent(EveryEngine.class)
                        && !NOT_ON_EVERY_ENGINE.contains(suite.getName())) {
                    untagged.add("@EveryEngine " + suite.getName());
                }
            }
        }
        assertEquals(List.of(), untagged, "these suites would run on nio with continuations only: add the tag, "
                + "or name the class in SuiteMembershipTest with its reason");
    }

    @Test
    void theSubjectsAreFound() throws Exception {
        assertTrue(testClassesOf("net").size() > 10, "the net suites are read from the test classes");
    }

    /** Whether {@code type} (or a superclass) declares a test: a method JUnit marks {@code @Testable}. */
    private static boolean hasTests(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method method : c.getDeclaredMethods()) {
                if (AnnotationSupport.isAnnotated(method, Testable.class)) { // directly or through meta-annotations
                    return true;
                }
            }
        }
        return false;
    }

    /** The top-level {@code *Test} classes of {@code io.jasyncio.SUBJECT} in this module's test classes. */
    private static List<Class<?>> testClassesOf(String subject) throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(SuiteMembershipTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = root.resolve("io/jasyncio").resolve(subject);
        List<Class<?>> suites = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return suites;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith("Test.class") && !name.contains("$")) {
                    Class<?> type = Class.forName("io.jasyncio." + subject + "." + name.substring(0, name.length() - ".class".length()));
                    if (hasTests(type)) {
                        suites.add(type);
                    }
                }
            }
        }
        return suites;
    }
}
