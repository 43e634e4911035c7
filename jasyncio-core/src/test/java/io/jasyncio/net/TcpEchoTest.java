package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.startServer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
@EveryLoop
@EveryEngine
class TcpEchoTest {

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void echoOverProtocols(String loopName) {
        byte[] payload = NetTesting.pattern(300_000, 1);
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            var errors = NetTesting.captureErrors();
            Server server = Network.createServer(loop, NetTesting.EchoProtocol::new, "127.0.0.1", 0);
            var c = Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, false),
                    "127.0.0.1", NetTesting.port(server));
            c.protocol().expected = payload.length;
            assertNotNull(c.transport().getExtraInfo("peername"));
            assertNotNull(c.transport().getExtraInfo("sockname"));
            assertTrue(c.transport().getExtraInfo("socket") instanceof java.nio.channels.SocketChannel);
            c.transport().write(payload);
            await(c.protocol().gotExpected);
            assertArrayEquals(payload, c.protocol().received.toByteArray());
            c.transport().close();
            assertNull(await(c.protocol().lost));
            NetTesting.closeServer(server);
            assertEquals(List.of(), errors);
            return null;
        });
    }

    /** A BufferedProtocol gets bytes read straight into its own buffer. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void echoIntoBufferedProtocol(String loopName) {
        byte[] payload = NetTesting.pattern(100_000, 2);
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            Server server = Network.createServer(loop, NetTesting.EchoProtocol::new, "127.0.0.1", 0);
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            var done = loop.<Void>createFuture();
            ByteBuffer own = ByteBuffer.allocate(1000);
            BufferedProtocol collector = new BufferedProtocol() {
                @Override
                public ByteBuffer getBuffer(int sizeHint) {
                    return own.clear();
                }

                @Override
                public void bufferUpdated(int nbytes) {
                    assertEquals(nbytes, own.position());
                    got.write(own.array(), 0, nbytes);
                    if (got.size() == payload.length) {
                        done.setResult(null);
                    }
                }
            };
            var c = Network.createConnection(loop, () -> collector, "127.0.0.1", NetTesting.port(server));
            c.transport().write(payload);
            await(done);
            assertArrayEquals(payload, got.toByteArray());
            c.transport().close();
            NetTesting.closeServer(server);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void echoOverStreams(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            Server server = startServer((reader, writer) -> {
                byte[] line;
                while ((line = reader.readline()).length > 0) {
                    writer.write(line);
                    writer.drain();
                }
                writer.close();
                writer.waitClosed();
            }, "127.0.0.1", 0);
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server));
            for (int i = 0; i < 100; i++) {
                c.writer().write(("line " + i + "\n").getBytes(StandardCharsets.UTF_8));
                c.writer().drain();
                assertEquals("line " + i + "\n", new String(c.reader().readline(), StandardCharsets.UTF_8));
            }
            c.writer().writelines(List.of("a\n".getBytes(), "b\n".getBytes()));
            assertEquals("a\n", new String(c.reader().readline()));
            assertEquals("b\n", new String(c.reader().readline()));
            c.writer().writeEof();                          // the server sees EOF, closes its side
            assertEquals(0, c.reader().read(-1).length);
            assertTrue(c.reader().atEof());
            NetTesting.closeAll(c, server);
            return null;
        });
    }

    /** The README's streams example, verbatim in spirit: it must compile and work. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void readmeExample(String loopName) {
        String answer = NetTesting.run(loopName, 20, ReadmeExample::main);
        assertEquals("hello, world\n", answer);
    }
}
