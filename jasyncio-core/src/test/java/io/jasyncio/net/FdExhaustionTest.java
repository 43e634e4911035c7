package io.jasyncio.net;

import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Running out of file descriptors, for real: an echo server in a child JVM under
 * {@code ulimit -n 256}, which has logged nothing yet, gets several hundred connections and must
 * survive them as asyncio does: report the failed accept, stop accepting for a second, try
 * again, and serve normally once the connections are gone.
 */
@Timeout(90)
@EveryLoop
@EveryEngine
class FdExhaustionTest {
    private static final int FD_LIMIT = 256;
    private static final int CONNECTIONS = 400;
    private static final String REPORT = "out of system resource";
    /** Linux's USER_HZ: the unit of the CPU times in /proc/PID/stat. */
    private static final double TICKS_PER_SECOND = 100;

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void outOfDescriptorsPausesAcceptingThenServesAgain(String loopName) throws Exception {
        Path stderr = Files.createTempFile("fd-exhaustion-", ".err");
        Process child = startChild(loopName, stderr);
        List<Socket> held = new ArrayList<>();
        try {
            int port = readPort(child, stderr);
            for (int i = 0; i < CONNECTIONS; i++) {
                Socket s = new Socket();
                s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
                held.add(s);
            }
            awaitReports(stderr, 1, child);
            Thread.sleep(500); // past the first report's own work

            int reportsBefore = reports(stderr);
            double cpuBefore = cpuSeconds(child);
            Thread.sleep(3_000);
            double cpu = cpuSeconds(child) - cpuBefore;
            int reportsDuring = reports(stderr) - reportsBefore;

            assertTrue(child.isAlive(), "the server died:\n" + tail(stderr));
            assertTrue(cpu < 0.3, "the exhausted server burned " + cpu + " s of CPU in 3 s (spinning on accept?)");
            assertTrue(reportsDuring >= 2 && reportsDuring <= 5, "accept should be retried about once a second, "
                    + "but it failed " + reportsDuring + " times in 3 s:\n" + tail(stderr));

            for (Socket s : held) {
                s.close();
            }
            held.clear();
            assertEchoesWithin(port, 10_000, stderr);
            assertTrue(child.isAlive(), "the server died:\n" + tail(stderr));
        } finally {
            for (Socket s : held) {
                s.close();
            }
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
            Files.deleteIfExists(stderr);
        }
    }

    private static Process startChild(String loopName, Path stderr) throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", "-c", "ulimit -n " + FD_LIMIT + " && exec \"$@\"", "child",
                new File(System.getProperty("java.home"), "bin/java").getPath(),
                "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED",
                "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-XX:+UseSerialGC", "-Xss4m",
                "-cp", System.getProperty("java.class.path"),
                FdLimitedEchoServer.class.getName(), loopName));
        return new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    }

    private static int readPort(Process child, Path stderr) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("listening on ")) {
            fail("the server did not start: " + line + "\n" + tail(stderr));
        }
        return Integer.parseInt(line.substring("listening on ".length()).trim());
    }

    private static void awaitReports(Path stderr, int atLeast, Process child) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (reports(stderr) < atLeast) {
            if (!child.isAlive()) {
                fail("the server died:\n" + tail(stderr));
            }
            if (System.nanoTime() > deadline) {
                fail("the server never reported running out of descriptors:\n" + tail(stderr));
            }
            Thread.sleep(50);
        }
    }

    private static int reports(Path stderr) throws IOException {
        String text = Files.readString(stderr, StandardCharsets.ISO_8859_1);
        int n = 0;
        for (int i = text.indexOf(REPORT); i >= 0; i = text.indexOf(REPORT, i + 1)) {
            n++;
        }
        return n;
    }

    /** user + system CPU time of the child so far (fields 14 and 15 of /proc/PID/stat). */
    private static double cpuSeconds(Process child) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + child.pid() + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
    }

    /** A new connection gets its bytes back (accepting resumes within the 1 s back-off). */
    private static void assertEchoesWithin(int port, long millis, Path stderr) throws Exception {
        byte[] ping = "ping after the storm".getBytes(StandardCharsets.US_ASCII);
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            s.setSoTimeout((int) millis);
            s.getOutputStream().write(ping);
            byte[] got = s.getInputStream().readNBytes(ping.length);
            assertArrayEquals(ping, got, "no echo once the connections closed:\n" + tail(stderr));
        }
    }

    private static String tail(Path stderr) {
        try {
            String text = Files.readString(stderr, StandardCharsets.ISO_8859_1);
            return text.length() <= 3_000 ? text : "..." + text.substring(text.length() - 3_000);
        } catch (IOException e) {
            return "(no stderr: " + e + ")";
        }
    }
}
