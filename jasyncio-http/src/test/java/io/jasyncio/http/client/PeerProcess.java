package io.jasyncio.http.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real server in a child process (CPython, Node, openssl) for the interop tests: started, its
 * port read from the line it prints once listening, killed (with its descendants) on close.
 * Every wait is bounded.
 */
final class PeerProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on [^:]+:(\\d+)");

    private final Process process;
    private final int port;
    private final StringBuffer output = new StringBuffer();

    private PeerProcess(List<String> command, Path dir, Function<String, Integer> portOf) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (dir != null) {
            builder.directory(dir.toFile());
        }
        process = builder.start();
        CompletableFuture<Integer> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("peer-output-" + command.getFirst()).start(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    output.append(line).append('\n');
                    Integer p = portOf.apply(line);
                    if (p != null) {
                        ready.complete(p);
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
            ready.completeExceptionally(new IOException("the peer ended before it listened: " + command + "\n" + output));
        });
        try {
            port = ready.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            close();
            throw new IOException("the peer did not start: " + command + "\n" + output, e);
        }
    }

    /** A server that prints {@code listening on HOST:PORT}. */
    static PeerProcess start(List<String> command) throws IOException {
        return new PeerProcess(command, null, PeerProcess::listeningPort);
    }

    /** A server started in {@code dir} whose ready line {@code readyLine} matches, with its port in group 1. */
    static PeerProcess start(List<String> command, Path dir, Pattern readyLine) throws IOException {
        return new PeerProcess(command, dir, line -> {
            Matcher m = readyLine.matcher(line);
            return m.find() ? Integer.parseInt(m.group(1)) : null;
        });
    }

    /** A server for a fixed port (openssl's s_server) that is ready once it prints {@code readyLine}. */
    static PeerProcess startOnPort(List<String> command, int port, String readyLine) throws IOException {
        return new PeerProcess(command, null, line -> line.contains(readyLine) ? port : null);
    }

    /** The test's python peer ({@code python_peer.py}). */
    static PeerProcess python() throws IOException {
        return start(List.of("python3", resource("python_peer.py").toString()));
    }

    /** The test's Node peer ({@code node_peer.js}). */
    static PeerProcess node() throws IOException {
        return start(List.of("node", resource("node_peer.js").toString()));
    }

    static Path resource(String name) {
        try {
            return Path.of(PeerProcess.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Integer listeningPort(String line) {
        Matcher m = LISTENING.matcher(line);
        return m.find() ? Integer.parseInt(m.group(1)) : null;
    }

    int port() {
        return port;
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    String output() {
        return output.toString();
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
