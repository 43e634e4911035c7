package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Map;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A peer's reset, for real (SO_LINGER 0, then close: an RST on loopback). */
@Timeout(30)
class ConnectionResetTest {

    static List<String> loops() {
        return NetTesting.loops();
    }

    /**
     * A reset reaches a stream reader as ConnectionResetException (asyncio's ConnectionResetError),
     * not as the JDK's raw SocketException; a handler that lets it escape is reported with the
     * transport it was given, though the connection is already lost.
     */
    @ParameterizedTest
    @MethodSource("loops")
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
            StreamConnection client = Streams.openConnection(loop, "127.0.0.1", NetTesting.port(server), null,
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
