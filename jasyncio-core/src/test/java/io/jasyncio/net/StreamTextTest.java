package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.startServer;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Text on streams with an explicit charset, try-with-resources, and the bound port without a cast. */
@Timeout(30)
@EveryLoop
@EveryEngine
class StreamTextTest {


    /** An echo server of lines: each line read as text is written back upper-cased. */
    private static Server upperCasingServer() throws Exception {
        return startServer((reader, writer) -> {
            try (writer) {
                String line;
                while ((line = reader.readLine(UTF_8)) != null) {
                    writer.writeLine(line.toUpperCase(), UTF_8);
                }
            }
        }, "127.0.0.1", 0);
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void linesGoOutAndComeBackAsTextWithoutTheirEndings(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            try (Server server = upperCasingServer();
                 StreamConnection c = openConnection("127.0.0.1", server.port())) {
                c.writer().writeLine("grüße", UTF_8);
                c.writer().write("crlf\r\n", UTF_8);
                c.writer().write("last, no ending", UTF_8);
                c.writer().writeEof();
                assertEquals("GRÜSSE", c.reader().readLine(UTF_8));
                assertEquals("CRLF", c.reader().readLine(UTF_8), "\\r\\n is a line ending too");
                assertEquals("LAST, NO ENDING", c.reader().readLine(UTF_8));
                assertNull(c.reader().readLine(UTF_8), "null at the end, as BufferedReader.readLine");
            }
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theCharsetIsTheCallersOwn(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            StreamReader r = new StreamReader(loop);
            r.feedData("é\n".getBytes(StandardCharsets.ISO_8859_1));
            r.feedData("é\n".getBytes(UTF_8));
            r.feedEof();
            assertEquals("é", r.readLine(StandardCharsets.ISO_8859_1));
            assertEquals("é", r.readLine(UTF_8));
            assertNull(r.readLine(UTF_8));
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void tryWithResourcesClosesConnectionAndServerWithoutWaiting(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            Server server = upperCasingServer();
            int port = server.port();
            StreamConnection kept;
            try (server; StreamConnection c = openConnection("127.0.0.1", port)) {
                kept = c;
                c.writer().writeLine("before close", UTF_8);
            }
            assertTrue(kept.writer().isClosing(), "the connection's close began at the end of the block");
            assertTrue(!server.isServing() && server.sockets().isEmpty(), "the server stopped listening");
            kept.writer().waitClosed(); // the close completes on the loop, after the block
            assertEquals(port, server.port(), "the port is still known after close");
            server.waitClosed();
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void thePortAndAddressNeedNoCast(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            try (Server server = upperCasingServer()) {
                assertTrue(server.port() > 0, "port 0 resolved to the one picked");
                assertEquals(server.addresses().getFirst(), server.localAddress());
                assertEquals("127.0.0.1", server.localAddress().getAddress().getHostAddress());
            }
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aUnixServerHasNoPort(String loopName) throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("jasyncio-port");
        java.nio.file.Path path = dir.resolve("s.sock");
        try {
            NetTesting.run(loopName, 20, () -> {
                try (Server server = Streams.startUnixServer(getRunningLoop(), (r, w) -> w.close(), path,
                        ServerOptions.defaults(), StreamReader.DEFAULT_LIMIT)) {
                    IllegalStateException e = assertThrows(IllegalStateException.class, server::port);
                    assertTrue(e.getMessage().contains("no IP address"), e.getMessage());
                }
                return null;
            });
        } finally {
            java.nio.file.Files.deleteIfExists(path);
            java.nio.file.Files.deleteIfExists(dir);
        }
    }
}
