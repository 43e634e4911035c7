package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
@EveryLoop
@EveryEngine
class ConnectionFailureTest {

    /** Resets the connection (RST, SO_LINGER 0) as soon as the first bytes arrive. */
    static final class Resetter implements Protocol {
        Transport transport;

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            try {
                ((SocketChannel) transport.getExtraInfo("socket")).setOption(StandardSocketOptions.SO_LINGER, 0);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
            transport.abort();
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void peerResetMidWriteEndsThatConnectionWithTheRealCause(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            Server resetting = Network.createServer(loop, Resetter::new, "127.0.0.1", 0);
            Server echo = Network.createServer(loop, NetTesting.EchoProtocol::new, "127.0.0.1", 0);
            var bystander = Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, false),
                    "127.0.0.1", NetTesting.port(echo));
            var victim = Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, false),
                    "127.0.0.1", NetTesting.port(resetting));
            victim.transport().write(new byte[32 << 20]); // far more than the socket buffers take
            Throwable cause = await(victim.protocol().lost);
            assertInstanceOf(IOException.class, cause, "connectionLost should carry the reset, got " + cause);

            bystander.protocol().expected = 5;
            bystander.transport().write("still".getBytes());
            await(bystander.protocol().gotExpected);
            assertEquals("still", bystander.protocol().received.toString());
            bystander.transport().close();
            resetting.close();
            echo.close();
            echo.waitClosed();
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aFailingProtocolCallbackEndsOnlyItsConnection(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            var errors = NetTesting.captureErrors();
            RuntimeException boom = new RuntimeException("boom");
            Future<Throwable> serverSideLost = loop.createFuture();
            Server server = Network.createServer(loop, () -> new Protocol() {
                Transport transport;

                @Override
                public void connectionMade(Transport transport) {
                    this.transport = transport;
                }

                @Override
                public void dataReceived(ByteBuffer data) {
                    if (data.get(data.position()) == 'X') {
                        throw boom;
                    }
                    transport.write(data);
                }

                @Override
                public void connectionLost(Throwable exc) {
                    if (exc != null) {
                        serverSideLost.setResult(exc);
                    }
                }
            }, "127.0.0.1", 0);
            int port = NetTesting.port(server);
            var good = Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, false), "127.0.0.1", port);
            var bad = Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, false), "127.0.0.1", port);
            bad.transport().write("Xplode".getBytes());
            assertSame(boom, await(serverSideLost));
            await(bad.protocol().lost);
            assertEquals(1, errors.size());
            assertEquals("Fatal error: protocol.data_received() call failed.", errors.getFirst().get("message"));
            assertSame(boom, errors.getFirst().get("exception"));

            good.protocol().expected = 4;
            good.transport().write("fine".getBytes());
            await(good.protocol().gotExpected);
            assertArrayEquals("fine".getBytes(), good.protocol().received.toByteArray());
            good.transport().close();
            assertNull(await(good.protocol().lost));
            NetTesting.closeServer(server);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void connectingToAClosedPortFails(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            Server server = Network.createServer(loop, NetTesting.EchoProtocol::new, "127.0.0.1", 0);
            int port = NetTesting.port(server);
            NetTesting.closeServer(server);
            sleep(0); // one loop turn: the poller releases the listening socket
            IOException e = assertThrows(IOException.class, () -> Network.createConnection(loop,
                    () -> new NetTesting.RecordingProtocol(loop, false), "127.0.0.1", port));
            assertTrue(e instanceof ConnectException, "got " + e);
            return null;
        });
    }
}
