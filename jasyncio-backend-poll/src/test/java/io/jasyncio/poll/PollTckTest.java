package io.jasyncio.poll;

import io.jasyncio.tck.BackendTck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The published test kit's whole every-loop suite on the poll backend, on the module path: this
 * module and jasyncio-native as modules, bound through core's {@code uses} alone, with the flags a
 * user of a native backend passes on the module path.
 */
class PollTckTest {
    @Test
    @Timeout(960)
    void everyLoopSuitePassesOnThePollBackendOnTheModulePath() throws Exception {
        Path nativeKit = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator)).map(Path::of)
                .filter(p -> p.toString().contains("jasyncio-native")).findFirst().orElseThrow();
        BackendTck.Result result = BackendTck.run("poll", List.of(Path.of("target", "classes"), nativeKit),
                List.of("--add-exports", "java.base/sun.nio.ch=io.jasyncio.core",
                        "--enable-native-access=io.jasyncio.nativeio,io.jasyncio.poll"),
                BackendTck.ALL, 15);
        assertTrue(result.providerCameFrom("poll", "io.jasyncio.poll"),
                "the poll provider came from its module on the module path:\n" + result.output());
        assertTrue(result.passed(), result.output());
        assertTrue(result.succeeded() >= 500, "the suites ran (succeeded " + result.succeeded() + "):\n" + result.output());
    }
}
