package io.jasyncio.http.client;

import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.jasyncio.net.Server;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.net.Streams;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code Expect: 100-continue} and a final response that comes while the request body is still
 * being sent, against jasyncio-http's own server and CPython's http.server, on every loop: the
 * body waits for the 100; a final answer instead of the 100 means no body is sent; an answer in
 * the middle of the body stops the sending, is delivered, and the connection is not reused.
 */
@OnEveryLoop
@EveryEngine
class ExpectAndEarlyResponseTest {
    /** 256 MiB in 64 KiB pieces: far more than is sent before an early answer stops it. */
    private static final int PIECES = 4096;
    private static PeerProcess python;

    @BeforeAll
    static void startPeer() throws IOException {
        python = PeerProcess.python();
    }

    @AfterAll
    static void stopPeer() throws IOException {
        if (python != null) {
            python.close();
        }
    }

    private static String url(HttpServer server, String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    /** A long body that records how it ended: null if written whole, else what stopped it. */
    private static RequestBody longBody(long length, AtomicReference<Throwable> stopped) {
        return RequestBody.streaming(length, out -> {
            try {
                for (int i = 0; i < PIECES; i++) {
                    out.write(ByteBuffer.allocate(64 * 1024));
                }
            } catch (IOException e) {
                stopped.set(e);
                throw e;
            }
        });
    }

    /** Coroutine: the connection was not kept for another request, and it closes. */
    private static void assertNotReused(HttpClient client, String url) {
        assertEquals(0, client.idleConnections(url), "a connection whose request body was cut is not reused");
        while (client.openConnections(url) > 0) {
            io.jasyncio.Asyncio.sleep(0.005);
        }
    }

    private static HttpClientRequest expecting(String url, RequestBody body) {
        return HttpClientRequest.post(url, body).withHeader("Expect", "100-continue");
    }

    @AsyncTest(timeout = 20)
    void theBodyWaitsForThe100(EventLoop loop) throws IOException {
        // the peer sends its 100 only after 0.2 s, and says whether body bytes came before it;
        // the 30 s expectation timeout is out of the way
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withExpectContinueTimeout(30));
             HttpClientResponse r = client.send(expecting(python.url("/continue-late"), RequestBody.of("a body of 19 bytes.")))) {
            assertEquals(200, r.status());
            assertEquals("waited 19", r.body().text());
        }
    }

    @AsyncTest(timeout = 20)
    void withoutA100TheBodyGoesAfterTheTimeout(EventLoop loop) throws IOException {
        // a server that ignores the expectation (RFC 9110 §10.1.1 lets it): it reads the head,
        // waits for the body without sending a 100, then answers
        Server server = Streams.startServer(loop, (reader, writer) -> {
            String head = new String(reader.readuntil("\r\n\r\n"), StandardCharsets.ISO_8859_1);
            boolean expected = head.contains("Expect: 100-continue");
            byte[] body = reader.readexactly(12);
            writer.write(("HTTP/1.1 200 OK\r\nContent-Length: 17\r\n\r\n" + (expected ? "expected " : "plain    ")
                    + new String(body, StandardCharsets.ISO_8859_1).substring(0, 8)).getBytes(StandardCharsets.ISO_8859_1));
            writer.drain();
            writer.close(); // the server's side of the connection: closing the server does not close it
        }, "127.0.0.1", 0, ServerOptions.defaults(), 64 * 1024);
        String url = "http://127.0.0.1:" + ((InetSocketAddress) server.addresses().getFirst()).getPort() + "/";
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withExpectContinueTimeout(0.2));
             HttpClientResponse r = client.send(expecting(url, RequestBody.of("twelve bytes")))) {
            assertEquals("expected twelve b", r.body().text());
        } finally {
            server.close();
        }
    }

    @AsyncTest(timeout = 20)
    void aFinalAnswerInsteadOfThe100MeansNoBody(EventLoop loop) throws IOException {
        HttpServer server = HttpServer.startStreaming(loop, exchange -> {
            exchange.respond(HttpResponse.text(401, "who are you?")); // before reading: no 100 is sent
        }, "127.0.0.1", 0, HttpServerOptions.defaults());
        boolean[] bodyStarted = {false};
        RequestBody body = RequestBody.streaming(1 << 20, out -> {
            bodyStarted[0] = true;
            out.write(ByteBuffer.allocate(1 << 20));
        });
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withExpectContinueTimeout(30))) {
            try (HttpClientResponse r = client.send(expecting(url(server, "/"), body))) {
                assertEquals(401, r.status());
                assertEquals("who are you?", r.body().text());
            }
            assertTrue(!bodyStarted[0], "the body was not sent");
            assertNotReused(client, url(server, "/"));
        } finally {
            server.close();
        }
    }

    @AsyncTest(timeout = 30)
    void anAnswerInTheMiddleOfTheBodyStopsItFromOurServer(EventLoop loop) throws IOException {
        HttpServer server = HttpServer.startStreaming(loop, exchange -> {
            exchange.read(); // a piece, then the answer: too large
            exchange.respond(HttpResponse.text(413, "enough"));
        }, "127.0.0.1", 0, HttpServerOptions.defaults().withLimits(io.jasyncio.http.HttpLimits.defaults().withMaxBodySize(-1 >>> 1)));
        AtomicReference<Throwable> stopped = new AtomicReference<>();
        try (HttpClient client = HttpClient.create(loop)) {
            try (HttpClientResponse r = client.send(HttpClientRequest.post(url(server, "/"), longBody(-1, stopped)))) {
                assertEquals(413, r.status());
                assertEquals("enough", r.body().text());
            }
            assertNotNull(stopped.get(), "the body stopped at the answer");
            assertNotReused(client, url(server, "/"));
        } finally {
            server.close();
        }
    }

    @AsyncTest(timeout = 30)
    void anAnswerInTheMiddleOfTheBodyStopsItFromPython(EventLoop loop) throws IOException {
        AtomicReference<Throwable> stopped = new AtomicReference<>();
        try (HttpClient client = HttpClient.create(loop)) {
            try (HttpClientResponse r = client.send(HttpClientRequest.post(python.url("/refuse"),
                    longBody(64L * 1024 * PIECES, stopped)))) {
                assertEquals(413, r.status());
                assertEquals("too large", r.body().text());
            }
            assertNotNull(stopped.get(), "the body stopped at the answer");
            assertNotReused(client, python.url("/"));
        }
    }
}
