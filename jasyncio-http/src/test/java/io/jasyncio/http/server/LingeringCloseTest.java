package io.jasyncio.http.server;

import io.jasyncio.Asyncio;
import io.jasyncio.http.HttpLimits;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.task.Task;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RFC 9112 §9.6's staged close over real sockets: a client still sending when the server refuses
 * its request reads the whole refusal and then a clean EOF, never a reset. (Closed at once, the
 * server's kernel answers the bytes that keep coming with a reset, and the client's reader then
 * fails with "Connection reset", the response lost with it.) The sleeps here only pace the
 * client's sending; the assertions wait for what the server does.
 */
class LingeringCloseTest {
    private static final int CHUNK = 16 * 1024;

    private static HttpServer start(HttpServerOptions options) throws java.io.IOException {
        return HttpServer.start(getRunningLoop(), request -> HttpResponse.text(200, "ok"), "127.0.0.1", 0,
                options.withLinger(10, 64L * 1024 * 1024));
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aClientPushingABodyPastTheLimitReadsThe413(String loop) {
        HttpTesting.run(loop, 30, () -> {
            HttpServer server = start(HttpServerOptions.defaults().withLimits(HttpLimits.defaults().withMaxBodySize(100)));
            TestClient client = TestClient.connect(server.port());
            client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n");
            Task<TestClient.Received> response = Asyncio.createTask(() -> client.response());
            byte[] chunk = new byte[CHUNK];
            // the body keeps coming while the refusal is on its way, and for a while after it
            for (int i = 0; i < 400 && !response.isDone(); i++) {
                client.send(chunk);
                client.connection.writer().drain();
            }
            keepSending(client, chunk);
            TestClient.Received r = Asyncio.await(response);
            assertEquals(413, r.status());
            assertEquals("close", r.header("Connection"));
            assertTrue(r.text().startsWith("413 "), r.text());
            assertEquals(0, client.readUntilEof().length, "the server's side ends cleanly after the 413");
            client.close();
            HttpTesting.until(() -> server.connectionCount() == 0); // the client's EOF ends the lingering
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aClientTricklingItsHeadReadsThe408(String loop) {
        HttpTesting.run(loop, 30, () -> {
            HttpServer server = start(HttpServerOptions.defaults().withHeaderTimeout(0.2));
            TestClient client = TestClient.connect(server.port());
            client.send("GET / HTTP/1.1\r\nHost: x\r\n");
            Task<TestClient.Received> response = Asyncio.createTask(() -> client.response());
            for (int i = 0; i < 500 && !response.isDone(); i++) {
                Asyncio.sleep(0.01);
                client.send("X-" + i + ": y\r\n");
            }
            keepSending(client, "X-after: y\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            TestClient.Received r = Asyncio.await(response);
            assertEquals(408, r.status());
            assertEquals("close", r.header("Connection"));
            assertEquals(0, client.readUntilEof().length, "the server's side ends cleanly after the 408");
            client.close();
            HttpTesting.until(() -> server.connectionCount() == 0);
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void requestsPipelinedAfterAClosingOneAreLingeredOver(String loop) {
        HttpTesting.run(loop, 30, () -> {
            HttpServer server = start(HttpServerOptions.defaults());
            TestClient client = TestClient.connect(server.port());
            // the first request closes the connection; the client pipelines on, unaware
            client.send("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n");
            TestClient.Received r = client.response();
            assertEquals(200, r.status());
            assertEquals("close", r.header("Connection"));
            keepSending(client, "GET /c HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals(0, client.readUntilEof().length, "the server's side ends cleanly (a FIN, no reset), /b unanswered");
            client.close();
            HttpTesting.within(3, () -> server.connectionCount() == 0, () -> "still lingering");
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void lingeringEndsAtItsDeadlineWhenTheClientNeverCloses(String loop) {
        HttpTesting.run(loop, 30, () -> {
            HttpServer server = HttpServer.start(getRunningLoop(), request -> HttpResponse.text(200, "ok"), "127.0.0.1", 0,
                    HttpServerOptions.defaults().withLimits(HttpLimits.defaults().withMaxBodySize(10)).withLinger(0.2, 1 << 20));
            TestClient client = TestClient.connect(server.port());
            client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n");
            assertEquals(413, client.response().status());
            assertEquals(0, client.readUntilEof().length);
            HttpTesting.until(() -> server.connectionCount() == 0); // the client stays: the deadline closes
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    /** Coroutine: a few more sends, paced so that a reset, if the server sends one, is back before the reads. */
    private static void keepSending(TestClient client, byte[] bytes) throws java.io.IOException {
        for (int i = 0; i < 5; i++) {
            client.send(bytes);
            client.connection.writer().drain();
            Asyncio.sleep(0.02);
        }
    }
}
