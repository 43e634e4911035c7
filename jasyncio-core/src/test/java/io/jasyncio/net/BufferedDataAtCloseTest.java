package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.LoopsUnderTest;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.startServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * close() and writeEof() with megabytes still in the write buffer: the peer, which was not
 * reading, must get every byte in order and then EOF, as asyncio delivers them.
 */
@Timeout(60)
@EveryLoop
@EveryEngine
class BufferedDataAtCloseTest {
    private static final long MIB = 1 << 20;

    private static final AtomicInteger SOCKETS = new AtomicInteger();

    @TempDir
    static Path dir;

    /** Every loop, over TCP and over a Unix domain socket. */
    static Stream<Arguments> loopsAndSockets() {
        return LoopsUnderTest.names().stream().flatMap(loop -> Stream.of(Arguments.of(loop, "tcp"), Arguments.of(loop, "unix")));
    }

    /** A server whose one connection reads nothing until resumed; returns it with the client's. */
    private static CounterStream.Link connectToPausedPeer(EventLoop loop, String socket) throws Exception {
        Future<CounterStream.PausedReceiver> accepted = loop.createFuture();
        Supplier<Protocol> receiver = CounterStream.pausedReceivers(loop, accepted);
        Server server;
        Connection<CounterStream.Sender> c;
        if (socket.equals("unix")) {
            Path path = dir.resolve("peer-" + SOCKETS.incrementAndGet() + ".sock");
            server = Network.createUnixServer(loop, receiver, path, ServerOptions.defaults());
            c = Network.createUnixConnection(loop, () -> new CounterStream.Sender(loop), path, null);
        } else {
            server = Network.createServer(loop, receiver, "127.0.0.1", 0);
            c = Network.createConnection(loop, () -> new CounterStream.Sender(loop), "127.0.0.1", NetTesting.port(server));
        }
        return new CounterStream.Link(server, c, await(accepted));
    }

    @ParameterizedTest
    @MethodSource("loopsAndSockets")
    void closeDeliversEveryBufferedByteThenEof(String loopName, String socket) {
        long atLeast = 8 * MIB;
        NetTesting.run(loopName, 50, () -> {
            EventLoop loop = getRunningLoop();
            List<Map<String, Object>> errors = NetTesting.captureErrors();
            CounterStream.Link p = connectToPausedPeer(loop, socket);
            long total = p.fill(atLeast);
            Transport t = p.client().transport();
            t.close();
            assertTrue(t.isClosing());
            assertEquals(total, p.resumePeerUntilEof(), "bytes the peer got before EOF");
            assertNull(await(p.client().protocol().lost), "close() after a full flush loses the connection cleanly");
            assertEquals(0, t.getWriteBufferSize());
            t.write(new byte[10]);  // too late: dropped, as on any lost connection
            t.abort();              // nothing left to abort: connectionLost is not called again
            sleep(0.01);
            assertEquals(List.of(), errors);
            NetTesting.closeServer(p.server());
            return null;
        });
    }

    /** writeEof, then the peer answers over the direction still open. */
    @ParameterizedTest
    @MethodSource("loopsAndSockets")
    void writeEofSendsFinOnlyAfterEveryBufferedByte(String loopName, String socket) {
        long atLeast = 8 * MIB;
        NetTesting.run(loopName, 50, () -> {
            EventLoop loop = getRunningLoop();
            List<Map<String, Object>> errors = NetTesting.captureErrors();
            CounterStream.Link p = connectToPausedPeer(loop, socket);
            long total = p.fill(atLeast);
            Transport t = p.client().transport();
            t.writeEof();
            assertThrows(IllegalStateException.class, () -> t.write(new byte[1]), "write after writeEof");
            p.peer().keepOpenOnEof = true;
            long got = p.resumePeerUntilEof();
            p.peer().transport.write(("got " + got).getBytes());
            p.peer().transport.close();
            assertNull(await(p.client().protocol().lost));
            assertEquals(total, got, "bytes the peer got before EOF");
            assertEquals("got " + total, p.client().protocol().answer.toString());
            assertEquals(List.of(), errors);
            NetTesting.closeServer(p.server());
            return null;
        });
    }

    /** Through the streams API, as a user writes it: 32 MiB, writeEof, then the answer (asyncio: every byte, then EOF). */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void streamWriterWriteEofDeliversThirtyTwoMebibytes(String loopName) {
        int total = 32 << 20;
        NetTesting.run(loopName, 50, () -> {
            List<Map<String, Object>> errors = NetTesting.captureErrors();
            Server server = startServer((reader, writer) -> {
                long got = 0;
                byte[] data;
                while ((data = reader.read(1 << 20)).length > 0) {
                    got += data.length;
                }
                writer.write(("got " + got).getBytes());
                writer.close();
            }, "127.0.0.1", 0);
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server));
            c.writer().write(CounterStream.chunk(0, total).array());
            c.writer().writeEof();
            assertEquals("got " + total, new String(c.reader().read(-1)));
            NetTesting.closeAll(c, server);
            assertEquals(List.of(), errors);
            return null;
        });
    }
}
