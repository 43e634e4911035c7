package io.jasyncio.net;

import io.jasyncio.debug.LogCapture;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.net.spi.Proactor;
import io.jasyncio.task.Runner;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import io.jasyncio.testing.OpenFds;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.channels.Pipe;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connections dropped without close(), counted in real descriptors (/proc/self/fd): as in
 * asyncio, a transport that becomes garbage has its socket closed (with an "unclosed transport"
 * warning in debug mode), and a server does not keep its connections alive.
 */
@Timeout(60)
@EveryLoop
@EveryEngine
class UnclosedTransportTest {
    private static final int DROPPED = 1_000;
    /** Descriptors the JVM may open meanwhile for its own reasons (class files, a log handler...). */
    private static final int SLACK = 20;

    /** Accepts and connects, then forgets both ends: neither side ever calls close(). */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void droppedConnectionsAreClosedOnceCollected(String loopName) throws Exception {
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        Logger resources = Logger.getLogger("io.jasyncio.resources");
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                warnings.add(r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        resources.addHandler(capture);
        resources.setUseParentHandlers(false);
        try {
            dropConnections(loopName, 10); // warm-up: classes loaded, loggers set up
            for (int i = 0; i < 3; i++) { // and the warm-up's connections collected and closed
                System.gc();
                Thread.sleep(100);
            }
            warnings.clear();
            int baseline = OpenFds.count();
            int peak = dropConnections(loopName, DROPPED);
            assertTrue(peak >= baseline + 2 * DROPPED - SLACK, "both ends were open: " + peak + " vs " + baseline);
            int after = collectUntilAtMost(baseline + SLACK);
            assertTrue(after <= baseline + SLACK, after + " descriptors open after a GC, " + baseline + " before");
        } finally {
            resources.removeHandler(capture);
            resources.setUseParentHandlers(true);
        }
        List<String> unclosed = warnings.stream().filter(w -> w.matches("(?s)unclosed transport <(Proactor)?SocketTransport.*")).toList();
        assertTrue(unclosed.size() >= 2 * DROPPED - SLACK, unclosed.size() + " warnings of " + 2 * DROPPED);
        assertTrue(unclosed.getFirst().contains("Object created at (most recent call first):\n\tat io.jasyncio.net."
                + "UnclosedTransportTest"), "no creation site: " + unclosed.getFirst());
    }

    /** A server left unclosed when its loop ends has its listening socket closed once collected. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void droppedServersCloseTheirListeningSockets(String loopName) throws Exception {
        int baseline = OpenFds.count();
        int servers = 50;
        try (Runner runner = new Runner(false, loopName)) {
            runner.run(() -> {
                for (int i = 0; i < servers; i++) {
                    Network.createServer(getRunningLoop(), Quiet::new, List.of("127.0.0.1"), 0, ServerOptions.defaults());
                }
                assertTrue(OpenFds.count() >= baseline + servers);
                return null;
            });
        }
        int after = collectUntilAtMost(baseline + SLACK);
        assertTrue(after <= baseline + SLACK, after + " descriptors open after a GC, " + baseline + " before");
    }

    /**
     * Pipe transports dropped without close() (as asyncio's pipe transports, whose collection
     * closes the pipe): neither end is watched by the loop, so both are collected and closed.
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void droppedPipeTransportsCloseTheirPipes(String loopName) throws Exception {
        int baseline = OpenFds.count();
        int pipes = 100;
        try (Runner runner = new Runner(false, loopName)) {
            runner.run(() -> {
                EventLoop loop = getRunningLoop();
                List<Transport> made = new ArrayList<>(); // until counted: a GC meanwhile would close them already
                for (int i = 0; i < pipes; i++) {
                    Pipe pipe = Pipe.open();
                    made.add(new WritePipeTransport(loop, pipe.sink(), new Quiet()));
                    made.add(new ReadPipeTransport(loop, pipe.source(), new Quiet()));
                }
                assertTrue(OpenFds.count() >= baseline + 2 * pipes, "both ends were open");
                made.clear();
                return null;
            });
        }
        int after = collectUntilAtMost(baseline + SLACK);
        assertTrue(after <= baseline + SLACK, after + " descriptors open after a GC, " + baseline + " before");
    }

    /** Runs a debug-mode loop that opens {@code n} connections and drops them; returns the peak fd count. */
    private static int dropConnections(String loopName, int n) throws IOException {
        try (Runner runner = new Runner(true, loopName)) {
            return runner.run(() -> {
                EventLoop loop = getRunningLoop();
                // debug mode for its unclosed-transport reports; what it times is not under test,
                // and on a loaded machine opening 100 connections in one step can pass 0.1 s
                loop.setSlowCallbackDuration(60);
                Future<Void> allAccepted = loop.createFuture();
                List<StreamWriter> accepted = new ArrayList<>(); // until the peak is counted
                Server server = Streams.startServer(loop, (reader, writer) -> { // returns without closing
                    accepted.add(writer);
                    if (accepted.size() == n) {
                        allAccepted.setResult(null);
                    }
                }, "127.0.0.1", 0, ServerOptions.defaults().withBacklog(n), StreamReader.DEFAULT_LIMIT);
                for (int i = 0; i < n; i++) {
                    Network.createConnection(loop, Quiet::new, "127.0.0.1", NetTesting.port(server));
                }
                waitFor(allAccepted, 30.0);
                int peak = OpenFds.count();
                accepted.clear();
                server.close(); // stops listening; the connections are left to the collector
                return peak;
            });
        }
    }

    /**
     * A server keeps no strong hold on its connections: one the loop no longer watches (its
     * handler returned without closing it; the peer half-closed, so nothing is read any more) is
     * collected, its socket closed (the peer sees the end), and waitClosed() does not wait for it.
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aServerLetsGoOfConnectionsNobodyHolds(String loopName) {
        NetTesting.run(loopName, 40, () -> {
            EventLoop loop = getRunningLoop();
            int n = 50;
            Server server = Streams.startServer(loop, (reader, writer) -> {
            }, "127.0.0.1", 0, ServerOptions.defaults(), StreamReader.DEFAULT_LIMIT);
            List<StreamConnection> clients = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                StreamConnection c = Streams.openConnection(loop, "127.0.0.1", NetTesting.port(server), ConnectOptions.defaults(),
                        StreamReader.DEFAULT_LIMIT);
                c.writer().writeEof(); // the server side reads EOF and stops reading
                clients.add(c);
            }
            List<Task<byte[]>> reads = new ArrayList<>();
            for (StreamConnection c : clients) {
                reads.add(createTask(() -> c.reader().read(1)));
            }
            while (!reads.stream().allMatch(Task::isDone)) {
                System.gc();
                sleep(0.05);
            }
            for (int i = 0; i < n; i++) {
                assertEquals(0, await(reads.get(i)).length, "the server's end of the connection was closed: EOF");
                clients.get(i).writer().close();
            }
            server.close();
            waitFor(createTask(server::waitClosed), 10.0);
            return null;
        });
    }

    /**
     * Stream connections dropped while the loop still watches them (asyncio 3.11.7+): the
     * server's handler reads one byte and returns without closing its writer; each client writes
     * one byte and drops its StreamConnection. Both ends are still read by the loop, yet both are
     * closed once collected, each with an "unclosed &lt;StreamWriter ...&gt;" warning.
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void droppedStreamConnectionsTheLoopStillWatchesAreClosed(String loopName) {
        int n = 500;
        try (LogCapture warnings = new LogCapture("io.jasyncio.resources")) {
            NetTesting.run(loopName, 50, () -> {
                EventLoop loop = getRunningLoop();
                int[] handled = {0};
                Future<Void> allHandled = loop.createFuture();
                Server server = Streams.startServer(loop, (reader, writer) -> {
                    reader.read(1);
                    if (++handled[0] == n) {
                        allHandled.setResult(null);
                    }
                }, "127.0.0.1", 0, ServerOptions.defaults().withBacklog(n), StreamReader.DEFAULT_LIMIT);
                int baseline = OpenFds.count();
                dropStreamClients(loop, NetTesting.port(server), n);
                waitFor(allHandled, 30.0);
                int peak = OpenFds.count();
                assertTrue(peak >= baseline + 2 * n - SLACK, "both ends were open: " + peak + " vs " + baseline);
                server.close();
                Task<Void> connectionsEnded = createTask(() -> {
                    server.waitClosed();
                    return null;
                });
                for (int round = 0; round < 100 && !connectionsEnded.isDone(); round++) {
                    System.gc();
                    sleep(0.05); // the loop runs the closes the collection scheduled
                }
                int open = OpenFds.count();
                assertTrue(connectionsEnded.isDone(), "the server still has connections after GCs; "
                        + open + " descriptors open, " + baseline + " before, " + peak + " with the connections");
                assertTrue(open <= baseline + SLACK, open + " descriptors open after GCs, " + baseline + " before, "
                        + peak + " with the connections");
                // The first end of each pair to close can only be closed by its writer's collection; the
                // other may follow (it reads EOF, is no longer watched, and is collected with its protocol).
                int unclosedWriters = warnings.containing("unclosed <StreamWriter transport=").size();
                assertTrue(unclosedWriters >= n, unclosedWriters + " writers warned, for " + n + " connections");
                return null;
            });
        }
    }

    /** Connects {@code n} stream clients that each write one byte, keeping none of them. */
    private static void dropStreamClients(EventLoop loop, int port, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            Streams.openConnection(loop, "127.0.0.1", port, ConnectOptions.defaults(), StreamReader.DEFAULT_LIMIT)
                    .writer().write(new byte[] {1});
        }
    }

    /** GCs (a bounded number of times) until at most {@code limit} descriptors are open; returns the count. */
    private static int collectUntilAtMost(int limit) {
        io.jasyncio.testing.Collect.until(() -> OpenFds.count() <= limit);
        return OpenFds.count();
    }

    /** A client protocol that does nothing at all. */
    static final class Quiet implements Protocol {
    }
}
