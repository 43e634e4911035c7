package io.jasyncio.http.server;

import io.jasyncio.http.HttpLimits;
import io.jasyncio.http.HttpResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every limit and every smuggling refusal over a real socket: the right status, Connection: close,
 * then the connection closed, and a request that follows the bad one is never answered.
 */
class LimitsTest {
    private static final HttpServerOptions SMALL = HttpServerOptions.defaults().withLimits(HttpLimits.defaults()
            .withMaxStartLineLength(64).withMaxHeaderBytes(256).withMaxHeaderCount(5).withMaxBodySize(100));

    private static final String H = "Host: x\r\n";
    /** Four field lines of 72 bytes each, every one under the 256-byte limit, together over it. */
    private static final String SUM_OVER_LIMIT = "GET / HTTP/1.1\r\n" + H
            + ("A: " + "v".repeat(67) + "\r\n").repeat(4) + "\r\n";

    private static final String NEXT = "GET /after HTTP/1.1\r\nHost: x\r\n\r\n";

    /** Requests the server must refuse, each with its status. */
    private static final Object[][] CASES = {
            {"GET /" + "a".repeat(80) + " HTTP/1.1\r\n" + H + "\r\n", 414},
            {"GET / HTTP/1.1\r\n" + H + "X: " + "v".repeat(300) + "\r\n\r\n", 431},
            {"GET / HTTP/1.1\r\n" + H + "A: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n\r\n", 431},
            {SUM_OVER_LIMIT, 431},
            {"GET / HTTP/1.1\r\nHost: a b/c\r\n\r\n", 400},
            {"GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", 400},
            {"GET / HTTP/1.1\r\nHost: user@a\r\n\r\n", 400},
            {"GET / HTTP/1.1\r\nHost: a:80x\r\n\r\n", 400},
            {"GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", 400},
            {"POST / HTTP/1.1\r\n" + H + "Content-Length: 101\r\n\r\n", 413},
            {"POST / HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked\r\n\r\n40\r\n" + "x".repeat(64) + "\r\n40\r\n", 413},
            {"POST / HTTP/1.1\r\n" + H + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400},
            {"POST / HTTP/1.1\r\n" + H + "Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400},
            {"POST / HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked, identity\r\n\r\n", 400},
            {"POST / HTTP/1.1\r\n" + H + "Transfer-Encoding: gzip, chunked\r\n\r\n", 501},
            {"POST / HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked\r\n\r\nz\r\n", 400},
            {"POST / HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked\r\n\r\n1;=\r\nx\r\n0\r\n\r\n", 400},
            {"GET / HTTP/1.1\r\n" + H + "X: a\r\n folded\r\n\r\n", 400},
            {"GET / HTTP/1.1\r\n" + H + "X: a\rY: b\r\n\r\n", 400},
            {"GET / HTTP/1.1\n" + H + "\r\n", 400},
            {"GET / HTTP/1.1\r\n" + H + "Content-Length : 0\r\n\r\n", 400},
            {"GET / HTTP/1.1\r\n\r\n", 400},
            {"BREW / HTTP/1.1\r\n" + H + "\r\n", 501},
            {"GET / HTTP/3.0\r\n" + H + "\r\n", 505},
    };

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void eachRefusalHasItsStatusAndClosesTheConnection(String loop) {
        HttpTesting.run(loop, 30, () -> {
            List<String> handled = new ArrayList<>();
            HttpServer server = HttpServer.start(getRunningLoop(), request -> {
                handled.add(request.target());
                return HttpResponse.text(200, "ok");
            }, "127.0.0.1", 0, SMALL);
            for (Object[] c : CASES) {
                String request = (String) c[0];
                int status = (Integer) c[1];
                TestClient client = TestClient.connect(server.port());
                client.send(request + NEXT);
                TestClient.Received r = client.response();
                assertEquals(status, r.status(), request);
                assertEquals("close", r.header("Connection"), request);
                assertTrue(r.text().startsWith(status + " "), r.text());
                assertEquals(0, client.readUntilEof().length, "closed after the refusal: " + request);
                client.close();
            }
            assertEquals(List.of(), handled, "no refused request, nor one after it, reached the handler");
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aRefusalStatesTheLimitNotTheRoomLeft(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = HttpServer.start(getRunningLoop(), request -> HttpResponse.text(200, "ok"), "127.0.0.1", 0, SMALL);
            TestClient client = TestClient.connect(server.port());
            client.send(SUM_OVER_LIMIT);
            TestClient.Received r = client.response();
            assertEquals("431 the header fields longer than 256 bytes\n", r.text());
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void validHostValuesAreServed(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = HttpServer.start(getRunningLoop(), request -> HttpResponse.text(200, "ok"), "127.0.0.1", 0, SMALL);
            TestClient client = TestClient.connect(server.port());
            for (String host : new String[] {"example.com", "example.com:8080", "127.0.0.1:1", "[::1]:80", "[::1]", "",
                    "xn--bcher-kva.example", "a%41b"}) {
                client.send("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
                assertEquals(200, client.response().status(), host);
            }
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void justUnderTheLimitsIsServed(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = HttpServer.start(getRunningLoop(), request -> HttpResponse.text(200, "" + request.body().length),
                    "127.0.0.1", 0, SMALL);
            TestClient client = TestClient.connect(server.port());
            client.send("GET /" + "a".repeat(49) + " HTTP/1.1\r\n" + H + "A: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n");
            assertEquals(200, client.response().status());
            client.send("POST / HTTP/1.1\r\n" + H + "Content-Length: 100\r\n\r\n" + "b".repeat(100));
            assertEquals("100", client.response().text());
            client.close();
            server.shutdown(5);
            return null;
        });
    }
}
