package io.jasyncio.testing;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Test helper: a child JVM on a given loop, its output read line by line, and real signals sent to it. */
public final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();

    /** Starts {@code java [flags] -Djasyncio.loop=LOOP -cp <this test's class path> ARGS...} (stderr merged). */
    public ChildJvm(String loopName, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        if (sigintIgnoredHere()) {
            // Started from a background job (`cmd &` in a script, nohup), this JVM ignores SIGINT
            // and a child would inherit that: its JVM then never installs a SIGINT handler, and
            // a test's `kill -INT` does nothing. The child gets the default disposition back.
            command.addAll(List.of("env", "--default-signal=INT"));
        }
        command.addAll(List.of(
                new File(System.getProperty("java.home"), "bin/java").getPath(),
                "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED",
                "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-Djasyncio.loop=" + loopName,
                "-cp", System.getProperty("java.class.path")));
        command.addAll(List.of(args));
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the child is gone
            }
        });
    }

    /** Whether this process ignores SIGINT (bit 2 of SigIgn in /proc/self/status). */
    private static boolean sigintIgnoredHere() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & (1L << 1)) != 0;
            }
        }
        return false;
    }

    /** The next output line starting with {@code prefix} (others are kept for the failure message). */
    public String awaitLine(String prefix, double seconds) throws InterruptedException {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        while (true) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("no line starting with '" + prefix + "' within " + seconds + " s; output: " + output());
            }
            seen.add(line);
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /** Sends {@code signal} ("TERM", "INT") with the real kill command. */
    public void kill(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -" + signal + " failed");
        }
    }

    /** Waits for the child to exit; its exit status. */
    public int exitValue(double seconds) throws InterruptedException {
        if (!process.waitFor((long) (seconds * 1000), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the child did not exit within " + seconds + " s; output: " + output());
        }
        return process.exitValue();
    }

    /** Every line read so far, and whatever is left (for failure messages). */
    public String output() {
        List<String> all = new ArrayList<>(seen);
        lines.drainTo(all);
        seen.clear();
        seen.addAll(all);
        return String.join("\n", all);
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
