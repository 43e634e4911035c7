package io.jasyncio.net;

import io.jasyncio.testing.ChildJvm;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * examples/GracefulShutdownServer.java, run as a program in a child JVM and sent a real
 * {@code kill -TERM}: it stops accepting, closes the idle connection at once, lets the short
 * request finish and answer, cuts off the long one at the deadline, and exits 0.
 */
@Timeout(90)
@EveryLoop
@EveryEngine
class GracefulShutdownExampleTest {
    private static final Path EXAMPLE = Path.of(System.getProperty("user.dir")).getParent()
            .resolve("examples/GracefulShutdownServer.java");

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void sigtermStopsAcceptingFinishesInFlightRequestsAndCutsOffTheRest(String loopName) throws Exception {
        assertTrue(Files.isRegularFile(EXAMPLE), EXAMPLE + " is missing");
        try (ChildJvm server = new ChildJvm(loopName, EXAMPLE.toString(), "0", "4")) {
            String listening = server.awaitLine("listening on ", 60);
            int port = Integer.parseInt(listening.substring(listening.lastIndexOf(':') + 1));
            try (Socket shortRequest = connect(port); Socket idle = connect(port); Socket longRequest = connect(port)) {
                send(longRequest, "work 60000\n");
                server.awaitLine("request started: work 60000", 10);
                // Still running when SIGTERM lands: 3 s for this thread to read the line, spawn
                // kill and the child's JVM to hand the signal to its loop, however loaded the
                // machine. It still ends first: its timer is due before the 4 s deadline's, which
                // starts later, and a loop fires timers in order of their due time.
                send(shortRequest, "work 3000\n");
                server.awaitLine("request started: work 3000", 10);

                server.kill("TERM");
                String stopped = server.awaitLine("SIGTERM: stopped accepting", 10);
                assertTrue(stopped.contains("2 request(s) in flight, 1 idle connection(s) closed"), stopped);
                assertTrue(refusedWithin(port, 5), "the listener is closed");

                assertEquals("", readToEnd(idle), "the idle connection is closed with no answer");
                assertEquals("done 3000\n", readToEnd(shortRequest), "the request in flight finished and answered");
                server.awaitLine("deadline passed: cutting off 1 connection(s)", 10);
                assertEquals("", readToEnd(longRequest), "the request past the deadline is cut off");
                server.awaitLine("bye", 10);
                assertEquals(0, server.exitValue(10), server.output());
            }
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(20_000);
        return s;
    }

    /**
     * Whether connecting is refused within {@code seconds}: NIO closes a channel its selector
     * watched at the selector's next turn, so the listener may take a loop iteration to go.
     * A connect that races the close is reset rather than refused (the kernel drops the
     * listener's half-open queue with a RST); that attempt proves nothing, so try again.
     */
    private static boolean refusedWithin(int port, double seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < deadline) {
            try {
                connect(port).close();
            } catch (ConnectException refused) {
                return true;
            } catch (SocketException resetWhileClosing) {
                // raced the listener's close: the next attempt tells
            }
            Thread.sleep(20);
        }
        return false;
    }

    private static void send(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
    }

    /** Everything until EOF (a reset counts as the end too). */
    private static String readToEnd(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        StringBuilder out = new StringBuilder();
        byte[] buf = new byte[256];
        try {
            int n;
            while ((n = in.read(buf)) > 0) {
                out.append(new String(buf, 0, n, StandardCharsets.US_ASCII));
            }
        } catch (SocketException reset) {
            // cut off: the end as well
        }
        return out.toString();
    }
}
