package io.jasyncio.task;

import io.jasyncio.Asyncio;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which engine a real JVM gets, from its flags alone: each case starts a child JVM (the only way
 * to vary the module exports) that runs one task with a suspension and prints where it ran.
 */
@Timeout(120)
@EveryLoop
class EngineSelectionTest {
    private static final String EXPORT = "--add-exports=java.base/jdk.internal.vm=ALL-UNNAMED";

    /** The child: one task that suspends, then says on which kind of thread its body ran. */
    public static final class Probe {
        public static void main(String[] args) {
            String where = Asyncio.run(() -> {
                Asyncio.sleep(0.01);
                return Thread.currentThread().isVirtual() ? "body on a virtual thread" : "body on the loop thread";
            });
            System.out.println("RESULT " + where);
        }
    }

    @Test
    void withoutTheExportTasksRunOnThePortableEngineAndOneInfoLineSaysHowToGetTheFasterOne() throws Exception {
        String out = runProbe(List.of());
        assertTrue(out.contains("RESULT body on a virtual thread"), out);
        assertEquals(1, out.lines().filter(l -> l.contains("jasyncio task engine: threads")).count(), out);
        assertTrue(out.contains("start the JVM with --add-exports java.base/jdk.internal.vm=ALL-UNNAMED"), out);
    }

    @Test
    void withTheExportTasksRunOnContinuationsAndNothingIsLogged() throws Exception {
        String out = runProbe(List.of(EXPORT));
        assertTrue(out.contains("RESULT body on the loop thread"), out);
        assertFalse(out.contains("task engine"), out);
    }

    @Test
    void thePropertyForcesTheEngine() throws Exception {
        String threads = runProbe(List.of(EXPORT, "-Djasyncio.engine=threads"));
        assertTrue(threads.contains("RESULT body on a virtual thread"), threads);
        assertFalse(threads.contains("task engine"), "a forced engine is not announced: " + threads);

        String missingFlag = runProbe(List.of("-Djasyncio.engine=continuation"));
        assertFalse(missingFlag.contains("RESULT"), missingFlag);
        assertTrue(missingFlag.contains("IllegalStateException: jasyncio tasks run on JDK continuations "
                + "(-Djasyncio.engine=continuation): start the JVM with --add-exports java.base/jdk.internal.vm=ALL-UNNAMED"),
                missingFlag);

        String unknown = runProbe(List.of("-Djasyncio.engine=fibers"));
        assertTrue(unknown.contains("-Djasyncio.engine=fibers names no task engine: use continuation or threads"), unknown);
    }

    private static String runProbe(List<String> jvmOptions) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(new File(System.getProperty("java.home"), "bin/java").getPath());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = child.getInputStream().readAllBytes();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not end");
        return new String(output, StandardCharsets.UTF_8);
    }
}
