package io.jasyncio.loop;

import io.jasyncio.Asyncio;
import io.jasyncio.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A JVM started in the background by a script ({@code java ... &}) inherits SIGINT ignored;
 * asyncio's {@code add_signal_handler} installs its handler whatever the inherited disposition,
 * and so does {@code addSignalHandler}: a child JVM started with SIGINT ignored is sent a real
 * {@code kill -INT}, and its handler runs.
 */
@Timeout(60)
class IgnoredSigintTest {

    @Test
    void aHandlerAddedOverAnInheritedSigIgnRunsOnARealSigint() throws Exception {
        try (ChildJvm child = ChildJvm.withSigintIgnored("nio", Probe.class.getName())) {
            child.awaitLine("SIGINT ignored at start: true", 30); // the child really inherited SIG_IGN
            child.awaitLine("ready", 30);
            child.kill("INT");
            child.awaitLine("handled: SIGINT", 10);
            child.awaitLine("SIGINT ignored after removal: true", 10); // removal puts the inherited SIG_IGN back
            assertEquals(0, child.exitValue(10), child.output());
        }
    }

    /** The child: adds a SIGINT handler and reports when it ran. */
    public static final class Probe {
        public static void main(String[] args) throws IOException {
            say("SIGINT ignored at start: " + ChildJvm.sigintIgnoredHere());
            String handled = Asyncio.run(() -> {
                EventLoop loop = Asyncio.getRunningLoop();
                Future<String> delivered = loop.createFuture();
                loop.addSignalHandler(Signal.SIGINT, () -> {
                    if (!delivered.isDone()) {
                        delivered.setResult("SIGINT");
                    }
                });
                say("ready");
                String got = Asyncio.waitFor(() -> Asyncio.await(delivered), 30.0);
                loop.removeSignalHandler(Signal.SIGINT);
                return got;
            });
            say("handled: " + handled);
            say("SIGINT ignored after removal: " + ChildJvm.sigintIgnoredHere());
        }

        private static void say(String line) {
            System.out.println(line);
            System.out.flush();
        }
    }
}
