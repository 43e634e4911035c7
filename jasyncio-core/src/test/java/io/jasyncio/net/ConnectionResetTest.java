package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Map;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A peer's reset, for real (SO_LINGER 0, then close: an RST on loopback). */
@Timeout(30)
@EveryLoop
@EveryEngine
class ConnectionResetTest {

    /** The low-level read, sockRecv, raises the same type for a reset. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void sockRecvRaisesConnectionResetOnAReset(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            try (ServerSocketChannel listener = ServerSocketChannel.open()) {
                listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                listener.configureBlocking(false);
                try (SocketChannel client = SocketChannel.open()) {
                    client.configureBlocking(false);
                    Sockets.sockConnect(loop, client, listener.getLocalAddress());
                    SocketChannel peer = Sockets.sockAccept(loop, listener);
                    peer.setOption(StandardSocketOptions.SO_LINGER, 0);
                    peer.close(); // RST
                    Exception e = assertThrows(IOException.class, () -> Sockets.sockRecv(loop, client, 10));
                    assertInstanceOf(ConnectionResetException.class, e, "a reset read as " + e);
                }
            }
            return null;
        });
    }

    /**
     * A reset reaches a stream reader as ConnectionResetException (asyncio's ConnectionResetError),
     * not as the JDK's raw SocketException; a handler that lets it escape is reported with the
     * transport it was given, though the connection is already lost.
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aResetIsAConnectionResetAndItsFailedHandlerIsReportedWithItsTransport(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            List<Map<String, Object>> errors = NetTesting.captureErrors();
            Future<Throwable> handlerSaw = loop.createFuture();
            Future<Transport> handlerTransport = loop.createFuture();
            Server server = Streams.startServer(loop, (reader, writer) -> {
                handlerTransport.setResult(writer.transport());
                try {
                    while (reader.read(100).length > 0) {
                        writer.write("ok".getBytes());
                    }
                } catch (Throwable t) {
                    handlerSaw.setResult(t);
                    throw t;
                }
            }, "127.0.0.1", 0, ServerOptions.defaults(), StreamReader.DEFAULT_LIMIT);
            StreamConnection client = Streams.openConnection(loop, "127.0.0.1", NetTesting.port(server), ConnectOptions.defaults(),
                    StreamReader.DEFAULT_LIMIT);
            client.writer().write("x".getBytes());
            assertEquals("ok", new String(client.reader().readexactly(2)));

            SocketChannel channel = (SocketChannel) client.writer().transport().getExtraInfo("socket");
            channel.setOption(StandardSocketOptions.SO_LINGER, 0);
            client.writer().transport().abort();

            Throwable seen = waitFor(handlerSaw, 5.0);
            assertInstanceOf(ConnectionResetException.class, seen, "a reset read as " + seen);
            while (errors.isEmpty()) {
                sleep(0.01);
            }
            Map<String, Object> report = errors.getFirst();
            assertEquals("Unhandled exception in client_connected_cb", report.get("message"));
            assertSame(seen, report.get("exception"));
            assertSame(handlerTransport.result(), report.get("transport"));
            NetTesting.closeServer(server);
            return null;
        });
    }
}
