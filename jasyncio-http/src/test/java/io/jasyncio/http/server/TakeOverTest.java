package io.jasyncio.http.server;

import io.jasyncio.Asyncio;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.net.Server;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.net.StreamConnection;
import io.jasyncio.net.StreamReader;
import io.jasyncio.net.StreamWriter;
import io.jasyncio.net.Streams;
import io.jasyncio.task.Task;
import io.jasyncio.testing.Collect;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A handler taking the connection over, over real sockets on every loop: after a 101 to an
 * Upgrade request the bytes are another protocol's (here a line protocol that answers each line
 * upper-cased, standing in for WebSocket), and after a 2xx to CONNECT they are a tunnel's.
 */
@EveryEngine
class TakeOverTest {
    /**
     * Upgrade: shout: each line back upper-cased until EOF; CONNECT 127.0.0.1:port: a tunnel there
     * (a 403 to other hosts, or ports other than {@code allowedPort}); the rest as
     * {@link StreamingTest#handle}.
     */
    static void handle(HttpExchange exchange, int allowedPort) throws Exception {
        var request = exchange.request();
        if (request.method().equals("CONNECT")) {
            tunnel(exchange, port -> port == allowedPort);
        } else if ("shout".equals(request.header("Upgrade"))) {
            StreamConnection c = exchange.takeOver(101, HttpHeaders.of("Upgrade", "shout"));
            for (byte[] line = c.reader().readline(); line.length > 0; line = c.reader().readline()) {
                c.writer().write(new String(line, StandardCharsets.US_ASCII).toUpperCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
                c.writer().drain();
            }
            c.close();
        } else {
            StreamingTest.handle(exchange);
        }
    }

    /** CONNECT: opens the target (on loopback), answers 200 and pumps bytes both ways until both ends are done. */
    static void tunnel(HttpExchange exchange, java.util.function.IntPredicate allowedPort) throws Exception {
        String target = exchange.request().target();
        int colon = target.lastIndexOf(':');
        int port = Integer.parseInt(target.substring(colon + 1));
        if (!target.substring(0, colon).equals("127.0.0.1") || !allowedPort.test(port)) {
            exchange.respond(HttpResponse.text(403, "not there"));
            return;
        }
        StreamConnection upstream = Streams.openConnection(getRunningLoop(), target.substring(0, colon), port, null, 64 * 1024);
        StreamConnection client = exchange.takeOver(200, HttpHeaders.empty());
        Task<Void> up = Asyncio.createTask(() -> pump(client.reader(), upstream.writer()));
        try {
            pump(upstream.reader(), client.writer());
            Asyncio.await(up);
        } finally {
            upstream.close();
            client.close();
        }
    }

    private static Void pump(StreamReader from, StreamWriter to) throws IOException {
        for (byte[] bytes = from.read(64 * 1024); bytes.length > 0; bytes = from.read(64 * 1024)) {
            to.write(bytes);
            to.drain();
        }
        to.writeEof();
        return null;
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void after101TheBytesAreTheNewProtocols(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = HttpServer.startStreaming(getRunningLoop(), ex -> handle(ex, -1), "127.0.0.1", 0,
                    HttpServerOptions.defaults());
            TestClient client = TestClient.connect(server.port());
            // a request first: the connection was plain HTTP/1.1 before
            client.send("GET /length HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals("abcdefghi", client.response().text());
            // the first line of the new protocol comes in the same write as the request
            client.send("GET /chat HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: shout\r\n\r\nfirst line\n");
            StreamReader reader = client.connection.reader();
            String head = new String(reader.readuntil("\r\n\r\n"), StandardCharsets.ISO_8859_1);
            assertTrue(head.startsWith("HTTP/1.1 101 Switching Protocols\r\n"), head);
            assertTrue(head.contains("Upgrade: shout\r\n") && head.contains("Connection: Upgrade\r\n"), head);
            assertTrue(!head.contains("Content-Length") && !head.contains("Transfer-Encoding"), head);
            assertEquals("FIRST LINE\n", new String(reader.readline(), StandardCharsets.US_ASCII));
            HttpTesting.until(() -> server.connectionCount() == 0); // the server let go of it
            client.send("GET / HTTP/1.1 is just a line now\n");
            assertEquals("GET / HTTP/1.1 IS JUST A LINE NOW\n", new String(reader.readline(), StandardCharsets.US_ASCII));
            client.connection.writer().writeEof();
            assertEquals(0, client.readUntilEof().length);
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aConnectTunnelCarriesBytesBothWays(String loop) {
        HttpTesting.run(loop, 20, () -> {
            Server echo = Streams.startServer(getRunningLoop(), (reader, writer) -> {
                for (byte[] b = reader.read(64 * 1024); b.length > 0; b = reader.read(64 * 1024)) {
                    writer.write(b);
                    writer.drain();
                }
                writer.close();
            }, "127.0.0.1", 0, ServerOptions.defaults(), 64 * 1024);
            int echoPort = ((InetSocketAddress) echo.addresses().getFirst()).getPort();
            HttpServer server = HttpServer.startStreaming(getRunningLoop(), ex -> handle(ex, echoPort), "127.0.0.1", 0,
                    HttpServerOptions.defaults());

            TestClient refused = TestClient.connect(server.port());
            refused.send("CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\nnot for HTTP");
            TestClient.Received no = refused.response("CONNECT");
            assertEquals(403, no.status());
            assertEquals("close", no.header("Connection"), "a CONNECT not tunnelled closes the connection");
            assertEquals(0, refused.readUntilEof().length);
            refused.close();

            TestClient client = TestClient.connect(server.port());
            client.send("CONNECT 127.0.0.1:" + echoPort + " HTTP/1.1\r\nHost: 127.0.0.1:" + echoPort + "\r\n\r\nearly ");
            StreamReader reader = client.connection.reader();
            String head = new String(reader.readuntil("\r\n\r\n"), StandardCharsets.ISO_8859_1);
            assertTrue(head.startsWith("HTTP/1.1 200 OK\r\n") && !head.contains("Content-Length"), head);
            byte[] big = new byte[1 << 20];
            new java.util.Random(7).nextBytes(big);
            client.send(big);
            client.connection.writer().writeEof();
            byte[] back = client.readUntilEof();
            assertEquals(6 + big.length, back.length, "what went through the tunnel came back");
            assertEquals("early ", new String(back, 0, 6, StandardCharsets.US_ASCII));
            assertTrue(java.util.Arrays.equals(big, java.util.Arrays.copyOfRange(back, 6, back.length)));
            client.close();
            server.shutdown(5);
            echo.close();
            return null;
        });
    }

    /**
     * A handler waiting on the connection it took over is held by the server until it ends: the
     * loop holds a waiting task only weakly (as asyncio) and the stream protocol its reader too,
     * so nothing else does, and a collected handler's StreamWriter closes the connection (a
     * tunnel then lost the bytes still on their way). Collections forced while it waits must leave
     * its streams, and the connection, alive.
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aHandlerWaitingOnTheConnectionItTookOverIsNotCollected(String loop) {
        HttpTesting.run(loop, 20, () -> {
            List<WeakReference<StreamConnection>> taken = new ArrayList<>();
            HttpServer server = HttpServer.startStreaming(getRunningLoop(), ex -> {
                StreamConnection c = ex.takeOver(101, HttpHeaders.of("Upgrade", "echo"));
                taken.add(new WeakReference<>(c));
                byte[] line = c.reader().readline(); // waits, held by nothing of its loop's
                c.writer().write(line);
                c.writer().drain();
                c.close();
            }, "127.0.0.1", 0, HttpServerOptions.defaults());
            TestClient client = TestClient.connect(server.port());
            client.send("GET /chat HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n");
            StreamReader reader = client.connection.reader();
            String head = new String(reader.readuntil("\r\n\r\n"), StandardCharsets.ISO_8859_1);
            assertTrue(head.startsWith("HTTP/1.1 101 Switching Protocols\r\n"), head);
            assertEquals(1, taken.size(), "the handler took the connection over");
            assertEquals(1, server.connections().takenOverHandlerCount(), "the server holds the handler's task");
            assertFalse(Collect.until(() -> taken.getFirst().get() == null),
                    "the taken-over connection's streams were collected while its handler waited on them");
            client.send("still there\n");
            assertEquals("still there\n", new String(reader.readline(), StandardCharsets.US_ASCII));
            assertEquals(0, client.readUntilEof().length);
            HttpTesting.within(2, () -> server.connections().takenOverHandlerCount() == 0,
                    () -> server.connections().takenOverHandlerCount() + " handler tasks still held after they ended");
            client.close();
            server.shutdown(5);
            return null;
        });
    }
}
