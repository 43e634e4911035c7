package io.jasyncio.http.server;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Streaming handlers: the body read as it arrives, the response written in parts (chunked or by length). */
@EveryEngine
class StreamingTest {
    /** /echo: chunked echo of the body piece by piece; /length: a 3-part response by Content-Length; /trailers. */
    static void handle(HttpExchange exchange) throws Exception {
        switch (exchange.request().path()) {
            case "/echo" -> {
                exchange.startResponse(200, HttpHeaders.of("Content-Type", "application/octet-stream"));
                for (ByteBuffer piece = exchange.read(); piece != null; piece = exchange.read()) {
                    exchange.write(piece);
                }
                exchange.end();
            }
            case "/length" -> {
                exchange.startResponse(200, HttpHeaders.empty(), 9);
                exchange.write("abc".getBytes(StandardCharsets.US_ASCII));
                exchange.write("def".getBytes(StandardCharsets.US_ASCII));
                exchange.write("ghi".getBytes(StandardCharsets.US_ASCII));
                exchange.end();
            }
            case "/trailers" -> {
                exchange.startResponse(200, HttpHeaders.empty());
                exchange.write(exchange.readAll());
                exchange.end(HttpHeaders.of("X-Checksum", "42"));
            }
            case "/forget" -> {
                // returns without answering: the server answers 500
            }
            default -> exchange.respond(HttpResponse.text(200, "whole " + exchange.readAll().length));
        }
    }

    static HttpServer start() throws java.io.IOException {
        return HttpServer.startStreaming(getRunningLoop(), StreamingTest::handle, "127.0.0.1", 0, HttpServerOptions.defaults());
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void chunkedBothWays(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start();
            TestClient client = TestClient.connect(server.port());
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n");
            // the first piece comes back before the request ends: the handler streams
            String first = client.readSome();
            assertTrue(first.startsWith("HTTP/1.1 200 OK\r\n") && first.contains("Transfer-Encoding: chunked\r\n"), first);
            assertTrue(first.endsWith("\r\n\r\n5\r\nhello\r\n") || first.endsWith("\r\n\r\n"), first);
            String rest = first.endsWith("hello\r\n") ? "" : client.readSome();
            assertTrue((first + rest).endsWith("5\r\nhello\r\n"), first + rest);
            client.send("6\r\n world\r\n0\r\n\r\n");
            StringBuilder tail = new StringBuilder();
            while (!tail.toString().endsWith("0\r\n\r\n")) {
                tail.append(client.readSome());
            }
            assertEquals("6\r\n world\r\n0\r\n\r\n", tail.toString());
            // and the connection goes on
            client.send("GET /length HTTP/1.1\r\nHost: x\r\n\r\n");
            TestClient.Received r = client.response();
            assertEquals("abcdefghi", r.text());
            assertEquals("9", r.header("Content-Length"));
            client.send("POST /trailers HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok");
            r = client.response();
            assertEquals("ok", r.text());
            assertEquals("42", r.trailers().get("X-Checksum"));
            client.send("GET /forget HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(500, client.response().status());
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theFirstReadSends100Continue(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start();
            TestClient client = TestClient.connect(server.port());
            client.send("PUT /whole HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n");
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", client.readSomeWithin(1));
            client.send("abcd");
            assertEquals("whole 4", client.response().text());
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void http10GetsAResponseEndedByClosing(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start();
            TestClient client = TestClient.connect(server.port());
            client.send("POST /echo HTTP/1.0\r\nContent-Length: 4\r\n\r\nabcd");
            String all = new String(client.readUntilEof(), StandardCharsets.ISO_8859_1);
            assertTrue(all.startsWith("HTTP/1.1 200 OK\r\n") && all.contains("Connection: close\r\n")
                    && !all.contains("Transfer-Encoding") && all.endsWith("\r\n\r\nabcd"), all);
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void headGetsNoBodyFromAStreamingHandler(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start();
            TestClient client = TestClient.connect(server.port());
            client.send("HEAD /length HTTP/1.1\r\nHost: x\r\n\r\nGET /length HTTP/1.1\r\nHost: x\r\n\r\n");
            TestClient.Received head = client.response("HEAD");
            assertEquals("9", head.header("Content-Length"));
            assertEquals(0, head.body().length);
            assertEquals("abcdefghi", client.response().text());
            client.close();
            server.shutdown(5);
            return null;
        });
    }
}
