package io.jasyncio.group;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.LoopsUnderTest;
import io.jasyncio.net.GroupServer;
import io.jasyncio.net.NetTesting;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.net.Transport;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** EventLoopGroup (N loops on N threads, Netty's graceful shutdown) and GroupServer (one port, every loop). */
@Timeout(60)
@EveryLoop
@EveryEngine
class EventLoopGroupTest {

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void eachLoopRunsOnItsOwnThreadAndNextGoesRoundRobin(String loopName) throws Exception {
        try (EventLoopGroup group = new EventLoopGroup(3, loopName)) {
            assertEquals(3, group.size());
            List<EventLoop> picked = List.of(group.next(), group.next(), group.next(), group.next());
            assertEquals(group.loops(), picked.subList(0, 3));
            assertSame(picked.get(0), picked.get(3));
            Set<Thread> threads = new HashSet<>();
            for (EventLoop loop : group.loops()) {
                Thread ranOn = group.submit(loop, () -> NetTesting.turnOf(loop)).get(10, TimeUnit.SECONDS);
                assertSame(loop.thread(), ranOn);
                threads.add(ranOn);
            }
            assertEquals(3, threads.size());
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void shutdownWaitsForTheQuietPeriodThenCancelsWhatIsLeftAndRefusesNewWork(String loopName) throws Exception {
        EventLoopGroup group = new EventLoopGroup(2, loopName);
        CompletableFuture<String> cleanup = new CompletableFuture<>();
        CompletableFuture<Void> longRunning = group.submit(() -> {
            try {
                sleep(60);
            } catch (CancelledError e) {
                cleanup.complete("cleaned up on " + Thread.currentThread().getName());
                throw e;
            }
            return null;
        });
        assertEquals(1, group.submit(() -> 1).get(10, TimeUnit.SECONDS)); // both loops are running tasks
        assertFalse(group.isShuttingDown());
        CompletableFuture<Void> terminated = group.shutdownGracefully(Duration.ofSeconds(2), Duration.ofSeconds(20));
        assertTrue(group.isShuttingDown());
        assertSame(terminated, group.terminationFuture());
        assertSame(terminated, group.shutdownGracefully(), "calling it again changes nothing");
        // Work keeps coming for a while: the quiet period keeps restarting, and the work is done.
        for (int i = 0; i < 6; i++) {
            int n = i;
            assertEquals(n, group.submit(() -> {
                sleep(0.01);
                return n;
            }).get(10, TimeUnit.SECONDS));
            Thread.sleep(50);
            assertFalse(terminated.isDone(), "shut down while work was still being submitted");
        }
        terminated.get(20, TimeUnit.SECONDS);
        assertTrue(cleanup.get(1, TimeUnit.SECONDS).startsWith("cleaned up on jasyncio-group-"), cleanup.get());
        assertTrue(longRunning.isCancelled());
        assertTrue(group.loops().stream().allMatch(EventLoop::isClosed));
        ExecutionException refused = assertThrows(ExecutionException.class, () -> group.submit(() -> 1).get(10, TimeUnit.SECONDS));
        assertInstanceOf(RejectedExecutionException.class, refused.getCause());
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theTimeoutEndsAShutdownThatATaskWouldHoldUp(String loopName) throws Exception {
        EventLoopGroup group = new EventLoopGroup(1, loopName);
        CompletableFuture<Void> stubborn = new CompletableFuture<>();
        group.submit(() -> {
            while (true) {
                try {
                    stubborn.complete(null);
                    sleep(60);
                } catch (CancelledError swallowed) {
                    // keeps going: only the timeout can end this shutdown
                }
            }
        });
        stubborn.get(10, TimeUnit.SECONDS);
        group.shutdownGracefully(Duration.ZERO, Duration.ofMillis(300)).get(20, TimeUnit.SECONDS);
        assertTrue(group.loops().getFirst().isClosed());
    }

    // ---- GroupServer ------------------------------------------------------------------------

    static List<Object[]> loopsAndModes() {
        List<Object[]> out = new ArrayList<>();
        for (String loop : LoopsUnderTest.names()) {
            out.add(new Object[] {loop, GroupServer.Mode.ACCEPTOR});
            if (GroupServer.reusePortAvailable()) {
                out.add(new Object[] {loop, GroupServer.Mode.REUSE_PORT});
            }
        }
        return out;
    }

    /** Echoes, and checks that every callback of its connection runs on the loop that made it. */
    static final class LoopCheckingEcho implements Protocol {
        final EventLoop loop;
        final List<String> wrongThread;
        private Transport transport;

        LoopCheckingEcho(EventLoop loop, List<String> wrongThread, Map<EventLoop, AtomicInteger> perLoop) {
            this.loop = loop;
            this.wrongThread = wrongThread;
            check("factory");
            perLoop.computeIfAbsent(loop, l -> new AtomicInteger()).incrementAndGet();
        }

        private void check(String where) {
            if (Thread.currentThread() != loop.thread()) {
                wrongThread.add(where + " ran on " + Thread.currentThread().getName());
            }
        }

        @Override
        public void connectionMade(Transport transport) {
            check("connectionMade");
            this.transport = transport;
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            check("dataReceived");
            transport.write(data);
        }

        @Override
        public void connectionLost(Throwable exc) {
            check("connectionLost");
        }
    }

    @ParameterizedTest
    @MethodSource("loopsAndModes")
    void aGroupServerSpreadsConnectionsOverItsLoopsAndEachStaysOnItsLoop(String loopName, GroupServer.Mode mode)
            throws Exception {
        int connections = 40;
        try (EventLoopGroup group = new EventLoopGroup(2, loopName)) {
            List<String> wrongThread = new CopyOnWriteArrayList<>();
            Map<EventLoop, AtomicInteger> perLoop = new ConcurrentHashMap<>();
            GroupServer server = GroupServer.start(group, loop -> new LoopCheckingEcho(loop, wrongThread, perLoop),
                    "127.0.0.1", 0, ServerOptions.defaults(), mode).get(10, TimeUnit.SECONDS);
            assertEquals(mode, server.mode());
            assertEquals(2, server.servers().size());
            assertNotSame(server.servers().get(0).getLoop(), server.servers().get(1).getLoop());

            List<Socket> clients = new ArrayList<>();
            try {
                for (int i = 0; i < connections; i++) {
                    Socket s = new Socket("127.0.0.1", server.port());
                    s.setSoTimeout(10_000);
                    clients.add(s);
                }
                for (int i = 0; i < connections; i++) {
                    byte[] message = NetTesting.pattern(1000 + i, i);
                    OutputStream out = clients.get(i).getOutputStream();
                    out.write(message);
                    out.flush();
                    assertArrayEquals(message, clients.get(i).getInputStream().readNBytes(message.length));
                }
            } finally {
                for (Socket s : clients) {
                    s.close();
                }
            }
            server.close().get(10, TimeUnit.SECONDS);
            server.waitClosed().get(10, TimeUnit.SECONDS);
            assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", server.port()).close());

            assertEquals(List.of(), wrongThread);
            assertEquals(connections, perLoop.values().stream().mapToInt(AtomicInteger::get).sum());
            assertEquals(2, perLoop.size(), "both loops got connections: " + perLoop);
            if (mode == GroupServer.Mode.ACCEPTOR) {
                for (AtomicInteger n : perLoop.values()) {
                    assertEquals(connections / 2, n.get(), "round-robin: " + perLoop);
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aStreamsHandlerRunsAsATaskOnItsConnectionsLoop(String loopName) throws Exception {
        try (EventLoopGroup group = new EventLoopGroup(2, loopName)) {
            Set<String> handlerThreads = ConcurrentHashMap.newKeySet();
            GroupServer server = GroupServer.startStreams(group, (reader, writer) -> {
                handlerThreads.add(Thread.currentThread().getName());
                writer.write(reader.readline());
                writer.drain();
                writer.close();
            }, "127.0.0.1", 0, ServerOptions.defaults(), GroupServer.Mode.AUTO).get(10, TimeUnit.SECONDS);
            for (int i = 0; i < 4; i++) {
                try (Socket s = new Socket("127.0.0.1", server.port())) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write(("line " + i + "\n").getBytes());
                    InputStream in = s.getInputStream();
                    assertEquals("line " + i + "\n", new String(in.readAllBytes()));
                }
            }
            server.close().get(10, TimeUnit.SECONDS);
            assertTrue(handlerThreads.stream().allMatch(n -> n.startsWith("jasyncio-group-")), handlerThreads.toString());
        }
    }
}
