package io.jasyncio.http.client;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The client against jasyncio-http's own server on the same loop, on every loop: keep-alive
 * reuse seen from both ends, a chunked upload, a response streamed in parts, HEAD, and an idle
 * pooled connection the server closes leaving the pool.
 */
@OnEveryLoop
@EveryEngine
class OwnServerTest {
    private static final HttpResponse HELLO = HttpResponse.text(200, "Hello, world!");

    private static String url(HttpServer server, String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    @AsyncTest
    void requestsShareOneKeepAliveConnection(EventLoop loop) throws IOException {
        HttpServer server = HttpServer.start(loop, request -> HELLO, "127.0.0.1", 0, HttpServerOptions.defaults());
        try (HttpClient client = HttpClient.create(loop)) {
            for (int i = 0; i < 3; i++) {
                try (HttpClientResponse r = client.get(url(server, "/"))) {
                    assertEquals("Hello, world!", r.body().text());
                }
            }
            assertEquals(1, client.openConnections(url(server, "/")));
            assertEquals(1, server.connectionCount(), "the server saw one connection for three requests");
        } finally {
            server.close();
        }
    }

    @AsyncTest
    void uploadsChunkedAndDownloadsAResponseStreamedInParts(EventLoop loop) throws IOException {
        HttpServer server = HttpServer.startStreaming(loop, exchange -> {
            long received = exchange.readAll().length;
            exchange.startResponse(200, HttpHeaders.of("Content-Type", "text/plain")); // no length: chunked
            for (int i = 0; i < 5; i++) {
                exchange.write(("part " + i + " of " + received + ";").getBytes(StandardCharsets.US_ASCII));
                sleep(0);
            }
            exchange.end();
        }, "127.0.0.1", 0, HttpServerOptions.defaults());
        try (HttpClient client = HttpClient.create(loop)) {
            RequestBody upload = RequestBody.streaming(-1, out -> {
                for (int i = 0; i < 16; i++) {
                    out.write(ByteBuffer.allocate(64 * 1024));
                }
            });
            try (HttpClientResponse r = client.send(HttpClientRequest.post(url(server, "/up"), upload))) {
                assertEquals("chunked", r.header("Transfer-Encoding"));
                StringBuilder expected = new StringBuilder();
                for (int i = 0; i < 5; i++) {
                    expected.append("part ").append(i).append(" of ").append(16 * 64 * 1024).append(';');
                }
                assertEquals(expected.toString(), r.body().text());
            }
            assertEquals(1, client.idleConnections(url(server, "/")), "both bodies ended: the connection is reusable");
        } finally {
            server.close();
        }
    }

    @AsyncTest
    void headGetsTheHeadOnly(EventLoop loop) throws IOException {
        HttpServer server = HttpServer.start(loop, request -> HELLO, "127.0.0.1", 0, HttpServerOptions.defaults());
        try (HttpClient client = HttpClient.create(loop)) {
            try (HttpClientResponse r = client.send(HttpClientRequest.of("HEAD", URI.create(url(server, "/"))))) {
                assertEquals("13", r.header("Content-Length"));
                assertEquals(0, r.body().readAll().length);
            }
            try (HttpClientResponse r = client.get(url(server, "/"))) {
                assertEquals("Hello, world!", r.body().text());
            }
            assertEquals(1, server.connectionCount());
        } finally {
            server.close();
        }
    }

    @AsyncTest
    void anIdleConnectionTheServerClosesLeavesThePool(EventLoop loop) throws IOException {
        HttpServerOptions shortIdle = HttpServerOptions.defaults().withIdleTimeout(0.1);
        HttpServer server = HttpServer.start(loop, request -> HttpResponse.text(200, String.valueOf(loop.time())),
                "127.0.0.1", 0, shortIdle);
        try (HttpClient client = HttpClient.create(loop)) {
            String first = client.get(url(server, "/")).body().text();
            assertEquals(1, client.idleConnections(url(server, "/")));
            while (client.openConnections(url(server, "/")) != 0) { // the server closes it after 0.1 s idle
                sleep(0.01);
            }
            String second = client.get(url(server, "/")).body().text();
            assertNotEquals(first, second);
            assertEquals(1, client.openConnections(url(server, "/")));
        } finally {
            server.close();
        }
    }
}
