package io.jasyncio.http.server;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Keep-alive, HEAD, HTTP/1.0, Connection: close, Date, bodies in and 100-continue, over real sockets on every loop. */
@EveryEngine
class HttpServerBasicsTest {
    private static final HttpResponse HELLO = HttpResponse.text(200, "hello, world\n");

    /** Answers /hello with one shared response, /echo with the request body, else the method and target. */
    static HttpResponse handle(io.jasyncio.http.HttpRequest request) {
        return switch (request.path()) {
            case "/hello" -> HELLO;
            case "/echo" -> HttpResponse.of(200, "application/octet-stream", request.body());
            default -> HttpResponse.text(200, request.method() + " " + request.target());
        };
    }

    static HttpServer start() throws java.io.IOException {
        return HttpServer.start(getRunningLoop(), HttpServerBasicsTest::handle, "127.0.0.1", 0, HttpServerOptions.defaults());
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void keepAliveServesManyRequestsOnOneConnection(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start();
            TestClient client = TestClient.connect(server.port());
            for (int i = 0; i < 50; i++) {
                client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                TestClient.Received r = client.response();
                assertEquals(200, r.status());
                assertEquals("hello, world\n", r.text());
                assertEquals("13", r.header("Content-Length"));
                assertNull(r.header("Connection"));
                assertTrue(r.header("Date").matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT"), r.header("Date"));
            }
            assertEquals(1, server.connectionCount());
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void headHasTheLengthButNoBody(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start();
            TestClient client = TestClient.connect(server.port());
            client.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            TestClient.Received head = client.response("HEAD");
            assertEquals("13", head.header("Content-Length"));
            assertEquals(0, head.body().length);
            // the next response starts right where the HEAD response's head ended
            assertEquals("hello, world\n", client.response().text());
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void http10ClosesUnlessKeepAliveIsAsked(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start();
            TestClient keep = TestClient.connect(server.port());
            keep.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            TestClient.Received r = keep.response();
            assertEquals("keep-alive", r.header("Connection"));
            keep.send("GET /b HTTP/1.0\r\n\r\n");
            r = keep.response();
            assertEquals("GET /b", r.text());
            assertEquals("close", r.header("Connection"));
            assertEquals(0, keep.readUntilEof().length, "the server closes after a plain 1.0 request");
            keep.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void connectionCloseIsHonoured(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start();
            TestClient client = TestClient.connect(server.port());
            client.send("GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /never HTTP/1.1\r\nHost: x\r\n\r\n");
            TestClient.Received r = client.response();
            assertEquals("close", r.header("Connection"));
            assertEquals(0, client.readUntilEof().length, "nothing after the close: the second request is not answered");
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void requestBodiesByLengthAndChunked(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start();
            TestClient client = TestClient.connect(server.port());
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello there");
            assertEquals("hello there", client.response().text());
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n6;ext=1\r\n there\r\n0\r\nX-T: 1\r\n\r\n");
            assertEquals("hello there", client.response().text());
            byte[] big = new byte[300_000];
            new java.util.Random(7).nextBytes(big);
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + big.length + "\r\n\r\n");
            client.send(big);
            assertArrayEquals(big, client.response().body());
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void expectContinueGetsA100BeforeTheBody(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start();
            TestClient client = TestClient.connect(server.port());
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n");
            // at once: a client that gets no 100 waits its own timeout (curl 1 s, others more) before it sends
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", client.readSomeWithin(1));
            client.send("ping");
            assertEquals("ping", client.response().text());
            // an expectation we cannot meet: 417, and the connection closes
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: teapot\r\n\r\n");
            TestClient.Received refused = client.response();
            assertEquals(417, refused.status());
            assertEquals("close", refused.header("Connection"));
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aFailingHandlerIsA500AndTheConnectionLives(String loop) {
        HttpTesting.run(loop, 20, () -> {
            List<Object> reported = new java.util.ArrayList<>();
            getRunningLoop().setExceptionHandler((l, context) -> reported.add(context.get("exception")));
            HttpServer server = HttpServer.start(getRunningLoop(), request -> {
                if (request.path().equals("/boom")) {
                    throw new IllegalStateException("boom");
                }
                return HttpResponse.text(200, "ok");
            }, "127.0.0.1", 0, HttpServerOptions.defaults());
            TestClient client = TestClient.connect(server.port());
            client.send("GET /boom HTTP/1.1\r\nHost: x\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(500, client.response().status());
            assertEquals(200, client.response().status());
            assertEquals(1, reported.size());
            assertEquals("boom", ((Throwable) reported.getFirst()).getMessage());
            client.close();
            server.shutdown(5);
            return null;
        });
    }
}
