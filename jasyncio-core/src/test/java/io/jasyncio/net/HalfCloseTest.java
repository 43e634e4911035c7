package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
@EveryLoop
@EveryEngine
class HalfCloseTest {

    /** Counts what it got; at EOF answers with the count over the still-open write side, then closes. */
    static final class CountThenAnswer implements Protocol {
        Transport transport;
        int count;

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            count += data.remaining();
            data.position(data.limit());
        }

        @Override
        public boolean eofReceived() {
            transport.write(("got " + count).getBytes());
            transport.close();
            return true; // keep the write side open until close() has flushed it
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void clientHalfClosesServerStillAnswers(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            Server server = Network.createServer(loop, CountThenAnswer::new, "127.0.0.1", 0);
            var c = Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, false),
                    "127.0.0.1", NetTesting.port(server));
            assertTrue(c.transport().canWriteEof());
            c.transport().write(new byte[12345]);
            c.transport().writeEof();
            await(c.protocol().eof);
            assertEquals("got 12345", c.protocol().received.toString());
            assertNull(await(c.protocol().lost));
            NetTesting.closeServer(server);
            return null;
        });
    }

    /**
     * A peer that half-closes and then stays: the end of the stream is reported once, however
     * many times the loop turns after it (a proactor must not ask the kernel for more after EOF).
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theEndOfTheStreamIsReportedOnce(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            Future<Void> serverDone = loop.createFuture();
            Server server = Network.createServer(loop, () -> new Protocol() {
                @Override
                public void connectionMade(Transport transport) {
                    transport.write("bye".getBytes());
                    transport.writeEof(); // and keeps its side open until the client closes
                }

                @Override
                public void connectionLost(Throwable exc) {
                    serverDone.setResult(null);
                }
            }, "127.0.0.1", 0);
            int[] eofs = {0};
            Future<Void> firstEof = loop.createFuture();
            var c = Network.createConnection(loop, () -> new Protocol() {
                @Override
                public boolean eofReceived() {
                    eofs[0]++;
                    if (!firstEof.isDone()) {
                        firstEof.setResult(null);
                    }
                    return true;
                }
            }, "127.0.0.1", NetTesting.port(server));
            await(firstEof);
            for (int i = 0; i < 20; i++) {
                io.jasyncio.Asyncio.sleep(0); // many turns of the loop after the end
            }
            io.jasyncio.Asyncio.sleep(0.02);
            assertEquals(1, eofs[0], "eofReceived calls");
            assertTrue(!c.transport().isClosing(), "the connection stays open after EOF: eofReceived said so");
            c.transport().close();
            await(serverDone);
            NetTesting.closeServer(server);
            return null;
        });
    }

    /** The server says hello and half-closes; the client answers after EOF on its open write side. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void serverHalfClosesClientStillAnswers(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            ByteArrayOutputStream serverGot = new ByteArrayOutputStream();
            Future<Throwable> serverLost = loop.createFuture();
            Protocol greeter = new Protocol() {
                @Override
                public void connectionMade(Transport transport) {
                    transport.write("hello".getBytes());
                    transport.writeEof();
                }

                @Override
                public void dataReceived(ByteBuffer data) {
                    byte[] b = new byte[data.remaining()];
                    data.get(b);
                    serverGot.writeBytes(b);
                }

                @Override
                public void connectionLost(Throwable exc) {
                    serverLost.setResult(exc);
                }
            };
            Server server = Network.createServer(loop, () -> greeter, "127.0.0.1", 0);
            var c = Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, true),
                    "127.0.0.1", NetTesting.port(server));
            await(c.protocol().eof);
            assertEquals("hello", c.protocol().received.toString());
            c.transport().write("reply after eof".getBytes());
            c.transport().close();
            assertNull(await(serverLost));
            assertEquals("reply after eof", serverGot.toString());
            assertNull(await(c.protocol().lost));
            NetTesting.closeServer(server);
            return null;
        });
    }
}
