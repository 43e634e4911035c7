package io.jasyncio.http.websocket;

import io.jasyncio.Asyncio;
import io.jasyncio.subprocess.Subprocess;
import io.jasyncio.subprocess.SubprocessOptions;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real WebSocket peers of the interop tests, installed when missing (a fresh machine works):
 * Python's websockets and python3-autobahn from Debian (run with /usr/bin/python3, which has
 * Debian's modules), Node's ws with npm into {@code src/test/node}. Servers run as child
 * processes that print {@code listening on HOST:PORT}; clients run from a task, under a deadline.
 */
final class Peers {
    static final String PYTHON = "/usr/bin/python3";
    private static final Pattern LISTENING = Pattern.compile("listening on [^:]+:(\\d+)");

    private Peers() {
    }

    /** Installs python3-websockets and python3-autobahn with apt-get if /usr/bin/python3 lacks them. */
    static synchronized void requirePythonPeers() throws IOException, InterruptedException {
        if (run(List.of(PYTHON, "-c", "import websockets, autobahn"), null) == 0) {
            return;
        }
        run(List.of("apt-get", "update", "-qq"), null);
        int status = run(List.of("apt-get", "install", "-y", "-qq", "python3-websockets", "python3-autobahn"), null);
        if (status != 0 || run(List.of(PYTHON, "-c", "import websockets, autobahn"), null) != 0) {
            throw new IOException("python3-websockets and python3-autobahn are needed: apt-get install -y python3-websockets python3-autobahn");
        }
    }

    /** src/test/node with ws installed in it (npm install when missing). */
    static synchronized Path nodePeerDir() throws IOException, InterruptedException {
        Path dir = Path.of("src/test/node").toAbsolutePath();
        if (!Files.isDirectory(dir.resolve("node_modules/ws"))
                && run(List.of("npm", "install", "--no-audit", "--no-fund", "--silent"), dir) != 0) {
            throw new IOException("npm install of ws failed in " + dir);
        }
        return dir;
    }

    static Path resource(String name) {
        try {
            return Path.of(Peers.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int run(List<String> command, Path dir) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        if (dir != null) {
            builder.directory(dir.toFile());
        }
        Process p = builder.start();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    /** A peer server in a child process, killed on close. */
    static final class Server implements AutoCloseable {
        private final Process process;
        private final int port;
        private final StringBuffer output = new StringBuffer();

        Server(List<String> command, Path dir) throws IOException {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            if (dir != null) {
                builder.directory(dir.toFile());
            }
            process = builder.start();
            CompletableFuture<Integer> ready = new CompletableFuture<>();
            Thread.ofPlatform().daemon().name("ws-peer-output").start(() -> {
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        output.append(line).append('\n');
                        Matcher m = LISTENING.matcher(line);
                        if (m.find()) {
                            ready.complete(Integer.parseInt(m.group(1)));
                        }
                    }
                } catch (IOException ignored) {
                    // the process ended
                }
                ready.completeExceptionally(new IOException("the peer ended before it listened: " + command + "\n" + output));
            });
            try {
                port = ready.get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                process.destroyForcibly();
                throw new IOException("the peer did not start: " + command + "\n" + output, e);
            }
        }

        String url() {
            return "ws://127.0.0.1:" + port;
        }

        /** Kills the peer and what it started, and waits (10 s at most) for it to be gone. */
        @Override
        public void close() throws Exception {
            java.util.stream.Stream.concat(process.descendants(), java.util.stream.Stream.of(process.toHandle()))
                    .forEach(ProcessHandle::destroyForcibly);
            process.onExit().get(10, TimeUnit.SECONDS);
        }
    }

    /** Coroutine: runs a peer client to its end (within 30 s) and returns its output's lines; fails if it fails. */
    static List<String> runClient(Path dir, String... command) throws IOException {
        Subprocess p = Asyncio.createSubprocessExec(SubprocessOptions.pipes().withCwd(dir).withStderr(io.jasyncio.subprocess.Stdio.STDOUT),
                command[0], java.util.Arrays.copyOfRange(command, 1, command.length));
        try {
            Subprocess.Output out = Asyncio.waitFor(() -> p.communicate(null), 30.0);
            String text = new String(out.stdout(), StandardCharsets.UTF_8);
            if (p.returncode() != 0) {
                throw new AssertionError(String.join(" ", command) + " exited with " + p.returncode() + ":\n" + text);
            }
            return text.lines().toList();
        } finally {
            if (p.returncode() == null) {
                p.kill();
                p.waitFor();
            }
        }
    }
}
