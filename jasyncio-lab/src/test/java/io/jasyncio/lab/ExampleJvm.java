package io.jasyncio.lab;

import javax.tools.ToolProvider;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** An example program of {@code examples/}, compiled by the test and run as a child JVM on the test's class path. */
final class ExampleJvm {
    private ExampleJvm() {
    }

    /** Compiles {@code examples/<source>} into {@code classes}. */
    static void compile(Path classes, String source) {
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), "-cp",
                System.getProperty("java.class.path"), "-proc:none", Path.of("..", "examples").resolve(source).toString()));
    }

    /**
     * A builder for {@code java [--add-exports ...] -Djasyncio.engine=ENGINE PROPERTIES -cp ... MAIN ARGS}: the
     * continuation engine gets the export it needs, the threads engine runs with no flag of ours but its name.
     */
    static ProcessBuilder java(Path classes, String engine, List<String> properties, String main, String... args)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        if (engine.equals("continuation")) {
            command.addAll(List.of("--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED"));
        }
        command.add("-Djasyncio.engine=" + engine);
        command.addAll(properties);
        command.addAll(List.of("-cp", classes + File.pathSeparator + System.getProperty("java.class.path"), main));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true);
    }
}
