package io.jasyncio.http.server;

import io.jasyncio.Asyncio;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.sync.Event;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;


import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nothing buffers without bound: a client that stops reading pauses the handler's writes; a
 * handler that stops reading stops the server reading the socket (and so, by TCP, the client).
 */
@EveryEngine
class FlowControlTest {
    private static final int PIECE = 16 * 1024;
    /** 12.8 MB: more than the kernel holds between the two ends (the client's receive buffer is set small). */
    private static final int PIECES = 800;

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aClientThatDoesNotReadPausesTheHandlersWrites(String loop) {
        HttpTesting.run(loop, 60, () -> {
            int[] written = {0};
            long[] maxBuffered = {0};
            HttpServerOptions options = HttpServerOptions.defaults().withWriteBufferLimits(64 * 1024, 16 * 1024);
            HttpServer[] server = new HttpServer[1];
            server[0] = HttpServer.startStreaming(getRunningLoop(), exchange -> {
                exchange.startResponse(200, HttpHeaders.empty(), (long) PIECE * PIECES);
                byte[] piece = new byte[PIECE];
                for (int i = 0; i < PIECES; i++) {
                    exchange.write(piece);
                    written[0]++;
                    HttpConnection c = server[0].connections().list().getFirst();
                    maxBuffered[0] = Math.max(maxBuffered[0], c.bufferedResponseBytes());
                }
                exchange.end();
            }, "127.0.0.1", 0, options);
            TestClient client = TestClient.connect(server[0].port(), 16 * 1024);
            client.socket().setOption(java.net.StandardSocketOptions.SO_RCVBUF, 32 * 1024);
            client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
            HttpConnection connection = awaitConnection(server[0]);
            // the kernel's buffers fill first; then the handler stops for good: paused, and no
            // write completes in 100 ms while the client reads nothing
            int writtenBefore;
            do {
                HttpTesting.until(() -> connection.isWritePaused() || written[0] == PIECES);
                writtenBefore = written[0];
                Asyncio.sleep(0.1);
            } while (written[0] != writtenBefore);
            assertTrue(connection.isWritePaused());
            assertTrue(written[0] < PIECES, "the handler waits: " + written[0]);
            assertTrue(maxBuffered[0] <= 64 * 1024 + PIECE, "the server holds at most the high-water mark and a piece: " + maxBuffered[0]);

            TestClient.Received r = client.response(); // now read: the handler goes on to the end
            assertEquals((long) PIECE * PIECES, r.body().length);
            assertEquals(PIECES, written[0]);
            assertTrue(maxBuffered[0] <= 64 * 1024 + PIECE, "and stayed bounded: " + maxBuffered[0]);
            client.close();
            server[0].shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aHandlerThatDoesNotReadStopsTheSocketBeingRead(String loop) {
        HttpTesting.run(loop, 60, () -> {
            Event release = new Event();
            // 48 MB: more than the kernel holds between the two ends (the server's receive buffer
            // grows to 32 MB here; the client's send buffer is set small)
            int total = 48 * 1024 * 1024;
            int readPause = 32 * 1024;
            HttpServer server = HttpServer.startStreaming(getRunningLoop(), exchange -> {
                release.await();
                long received = 0;
                for (java.nio.ByteBuffer piece = exchange.read(); piece != null; piece = exchange.read()) {
                    received += piece.remaining();
                }
                exchange.respond(io.jasyncio.http.HttpResponse.text(200, "" + received));
            }, "127.0.0.1", 0, HttpServerOptions.defaults().withReadPauseBytes(readPause)
                    .withLimits(io.jasyncio.http.HttpLimits.defaults().withMaxBodySize(total)));
            TestClient client = TestClient.connect(server.port());
            client.socket().setOption(java.net.StandardSocketOptions.SO_SNDBUF, 64 * 1024);
            long[] sent = {0};
            Task<Void> sender = Asyncio.createTask(() -> {
                client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + total + "\r\n\r\n");
                byte[] piece = new byte[64 * 1024];
                while (sent[0] < total) {
                    client.send(piece);
                    sent[0] += piece.length;
                    client.connection.writer().drain();
                }
                return null;
            });
            HttpConnection connection = awaitConnection(server);
            HttpTesting.until(connection::isReadingPaused);
            long held = connection.heldBytes();
            Asyncio.sleep(0.1); // paused, the server holds what it has and takes no more
            assertEquals(held, connection.heldBytes());
            assertTrue(held <= readPause + 256 * 1024, "held: the mark and one read at most: " + held);
            assertFalse(sender.isDone(), "the client is held back by TCP: " + sent[0] + " of " + total + " sent");

            release.set();
            assertEquals("" + total, client.response().text());
            Asyncio.waitFor(sender, 10.0);
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aClientThatPipelinesAndDoesNotReadIsHeldBack(String loop) {
        HttpTesting.run(loop, 60, () -> {
            int requests = 1000; // 16 MB of responses: more than the kernel holds between the two ends
            io.jasyncio.http.HttpResponse piece = io.jasyncio.http.HttpResponse.of(200, "application/octet-stream", new byte[PIECE]);
            int[] answered = {0};
            HttpServer server = HttpServer.start(getRunningLoop(), request -> {
                answered[0]++;
                return piece;
            }, "127.0.0.1", 0, HttpServerOptions.defaults().withWriteBufferLimits(64 * 1024, 16 * 1024));
            TestClient client = TestClient.connect(server.port(), 16 * 1024);
            client.socket().setOption(java.net.StandardSocketOptions.SO_RCVBUF, 32 * 1024);
            String one = "GET /piece HTTP/1.1\r\nHost: x\r\n\r\n";
            client.send(one.repeat(requests));
            HttpConnection connection = awaitConnection(server);
            int answeredBefore;
            do {
                HttpTesting.until(() -> connection.isWritePaused() || answered[0] == requests);
                answeredBefore = answered[0];
                Asyncio.sleep(0.1);
            } while (answered[0] != answeredBefore);
            assertTrue(answered[0] < requests, "the requests wait while the client takes no response: " + answered[0]);
            assertTrue(connection.bufferedResponseBytes() <= 64 * 1024 + 2 * PIECE,
                    "the server holds the high-water mark and a response at most: " + connection.bufferedResponseBytes());
            for (int i = 0; i < requests; i++) {
                assertEquals(PIECE, client.response().body().length);
            }
            assertEquals(requests, answered[0]);
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    private static HttpConnection awaitConnection(HttpServer server) {
        HttpTesting.until(() -> server.connectionCount() > 0);
        return server.connections().list().getFirst();
    }
}
