package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.task.ExceptionGroup;
import io.jasyncio.task.TimeoutException;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connecting as asyncio's {@code create_connection} does, against real loopback sockets: happy
 * eyeballs past an address that never answers, a local address, an overall timeout, and the
 * errors of every address reported together.
 */
@Timeout(30)
@EveryLoop
@EveryEngine
class ConnectOptionsTest {

    /**
     * A listening socket that never accepts, its accept queue filled: Linux then drops further
     * SYNs, so a connect to it neither succeeds nor fails (until SYN retries give up, minutes later).
     */
    static final class Unanswering implements AutoCloseable {
        final ServerSocket listener;
        final List<Socket> fillers = new ArrayList<>();

        Unanswering() throws IOException {
            listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            for (int i = 0; i < 8; i++) { // backlog 1 takes two; the rest fill the SYN path until connects stall
                Socket s = new Socket();
                try {
                    s.connect(listener.getLocalSocketAddress(), 200);
                    fillers.add(s);
                } catch (IOException stalled) {
                    s.close();
                    return; // the queue is full: connects now hang
                }
            }
            throw new IllegalStateException("the accept queue never filled; cannot make an unanswering address here");
        }

        InetSocketAddress address() {
            return (InetSocketAddress) listener.getLocalSocketAddress();
        }

        @Override
        public void close() throws IOException {
            for (Socket s : fillers) {
                s.close();
            }
            listener.close();
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void happyEyeballsConnectsToTheSecondAddressAfterTheDelayWhenTheFirstNeverAnswers(String loopName) throws Exception {
        try (Unanswering silent = new Unanswering()) {
            againstEchoServer(loopName, (loop, live) -> {
                double start = loop.time();
                var c = connect(loop, List.of(silent.address(), live), ConnectOptions.defaults().withHappyEyeballsDelay(0.25));
                double took = loop.time() - start;
                InetSocketAddress peer = (InetSocketAddress) c.transport().getExtraInfo("peername");
                assertEquals(live, peer, "the second address should win");
                assertTrue(took >= 0.25, "the second attempt must wait for the delay, started after " + took + " s");
                assertTrue(took < 10, "took " + took + " s");
                c.transport().close();
            });
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aRefusedFirstAddressStartsTheNextAtOnce(String loopName) {
        againstEchoServer(loopName, (loop, live) -> {
            double start = loop.time();
            var c = connect(loop, List.of(refusedAddress(), live), ConnectOptions.defaults().withHappyEyeballsDelay(30));
            assertTrue(loop.time() - start < 10, "a failed attempt must start the next one without the 30 s delay");
            assertEquals(live, c.transport().getExtraInfo("peername"));
            c.transport().close();
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void withoutHappyEyeballsTheOverallTimeoutEndsAHungAttempt(String loopName) throws Exception {
        try (Unanswering silent = new Unanswering()) {
            NetTesting.run(loopName, 20, () -> {
                EventLoop loop = getRunningLoop();
                assertThrows(TimeoutException.class, () -> Network.createConnection(loop,
                        () -> new NetTesting.RecordingProtocol(loop, false), List.of(silent.address()),
                        ConnectOptions.defaults().withTimeout(0.3)));
                return null;
            });
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void everyAddressFailingReportsThemAll(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            List<InetSocketAddress> both = List.of(refusedAddress(), refusedAddress());
            for (ConnectOptions options : List.of(ConnectOptions.defaults(), ConnectOptions.defaults().withHappyEyeballsDelay(0.1))) {
                // the same error twice is raised once, as asyncio does
                IOException same = assertThrows(IOException.class, () -> Network.createConnection(loop,
                        () -> new NetTesting.RecordingProtocol(loop, false), both, options));
                assertTrue(String.valueOf(same.getMessage()).contains("refused"), same.toString());
                ExceptionGroup all = assertThrows(ExceptionGroup.class, () -> Network.createConnection(loop,
                        () -> new NetTesting.RecordingProtocol(loop, false), both, options.withAllErrors(true)));
                assertEquals(2, all.exceptions().size(), all.exceptions().toString());
            }
            // different errors: one "Multiple exceptions" naming each (here: refused, and no IPv6 local address)
            IOException multiple = assertThrows(IOException.class, () -> Network.createConnection(loop,
                    () -> new NetTesting.RecordingProtocol(loop, false),
                    List.of(refusedAddress(), new InetSocketAddress("::1", 9)),
                    ConnectOptions.defaults().withLocalAddress(new InetSocketAddress("127.0.0.1", 0))));
            assertTrue(multiple.getMessage().startsWith("Multiple exceptions: ")
                    && multiple.getMessage().contains("no matching local address with family=INET6 found"), multiple.getMessage());
            assertEquals(2, multiple.getSuppressed().length);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theLocalAddressIsBoundBeforeConnecting(String loopName) {
        againstEchoServer(loopName, (loop, live) -> {
            var c = Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, false),
                    "127.0.0.1", live.getPort(),
                    ConnectOptions.defaults().withLocalAddress(new InetSocketAddress("127.0.0.2", 0)));
            InetSocketAddress local = (InetSocketAddress) c.transport().getExtraInfo("sockname");
            assertEquals(InetAddress.getByName("127.0.0.2"), local.getAddress());
            c.transport().close();
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void streamsConnectWithTheSameOptions(String loopName) {
        againstEchoServer(loopName, (loop, live) -> {
            StreamConnection c = Streams.openConnection(loop, "127.0.0.1", live.getPort(),
                    ConnectOptions.defaults().withHappyEyeballsDelay(0.25).withTimeout(5), StreamReader.DEFAULT_LIMIT);
            c.writer().write("ping\n".getBytes());
            assertEquals("ping\n", new String(c.reader().readline()));
            c.writer().close();
            c.writer().waitClosed();
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void streamsTakeNullOptionsAsAPlainConnectionWithoutACast(String loopName) {
        againstEchoServer(loopName, (loop, live) -> {
            StreamConnection c = Streams.openConnection(loop, "127.0.0.1", live.getPort(), null, 16);
            c.writer().write("ping\n".getBytes());
            assertEquals("ping\n", new String(c.reader().readline()));
            assertThrows(IllegalArgumentException.class, () -> {
                c.writer().write("a line longer than the sixteen-byte limit\n".getBytes());
                c.reader().readline();
            }, "the limit given with null options is the reader's");
            c.writer().close();
            c.writer().waitClosed();
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void networkTakesNullOptionsAsAPlainConnectionWithoutACast(String loopName) {
        againstEchoServer(loopName, (loop, live) -> {
            var c = Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, false),
                    "127.0.0.1", live.getPort(), null);
            await(c.protocol().made);
            assertNull(c.transport().getExtraInfo("sslcontext"), "null options made a TLS connection");
            c.transport().write("ping".getBytes());
            c.transport().close();
            assertEquals(null, await(c.protocol().lost));
        });
    }

    @Test
    void interleavingAlternatesFamiliesAsAsyncioDoes() {
        InetSocketAddress a4 = new InetSocketAddress("127.0.0.1", 1);
        InetSocketAddress b4 = new InetSocketAddress("127.0.0.2", 1);
        InetSocketAddress c4 = new InetSocketAddress("127.0.0.3", 1);
        InetSocketAddress a6 = new InetSocketAddress("::1", 1);
        InetSocketAddress b6 = new InetSocketAddress("::2", 1);
        List<InetSocketAddress> resolved = List.of(a6, b6, a4, b4, c4);
        assertEquals(resolved, Connector.interleave(resolved, 0));
        assertEquals(List.of(a6, a4, b6, b4, c4), Connector.interleave(resolved, 1));
        assertEquals(List.of(a6, b6, a4, b4, c4), Connector.interleave(resolved, 2));
        assertEquals(List.of(a6, b6, a4, b4, c4), Connector.interleave(resolved, 5));
    }

    /** What a test does on the running loop against an echo server listening at {@code echo}. */
    interface AgainstEcho {
        void run(EventLoop loop, InetSocketAddress echo) throws Exception;
    }

    /** Runs {@code body} on a fresh loop named {@code loopName} with an echo server up, then closes the server. */
    private static void againstEchoServer(String loopName, AgainstEcho body) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            Server server = Network.createServer(loop, NetTesting.EchoProtocol::new, "127.0.0.1", 0);
            body.run(loop, new InetSocketAddress("127.0.0.1", NetTesting.port(server)));
            NetTesting.closeServer(server);
            return null;
        });
    }

    /** Connects a recording client to {@code addresses} as {@code create_connection} does. */
    private static Connection<NetTesting.RecordingProtocol> connect(EventLoop loop, List<InetSocketAddress> addresses,
                                                                     ConnectOptions options) throws IOException {
        return Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, false), addresses, options);
    }

    /** A loopback port nobody listens on: connecting is refused at once. */
    private static InetSocketAddress refusedAddress() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return (InetSocketAddress) s.getLocalSocketAddress();
        }
    }
}
