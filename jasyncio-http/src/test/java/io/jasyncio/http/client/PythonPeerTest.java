package io.jasyncio.http.client;

import io.jasyncio.http.HttpVersion;
import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.loop.EventLoop;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client against CPython's {@code http.server}, on every loop: keep-alive reuse, the three
 * body framings (Content-Length, chunked, until close), responses that end their connection,
 * a malformed response, a stale keep-alive connection, and {@code python3 -m http.server} as it
 * ships (HTTP/1.0).
 */
@OnEveryLoop
@EveryEngine
class PythonPeerTest {
    private static PeerProcess peer;
    private static PeerProcess fileServer;
    private static Path servedDir;
    private HttpClient client;

    @BeforeAll
    static void startPeers() throws IOException {
        peer = PeerProcess.python();
        servedDir = Files.createTempDirectory("jasyncio-http-served");
        Files.writeString(servedDir.resolve("hello.txt"), "a file served by http.server\n");
        fileServer = PeerProcess.start(List.of("python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "0"), servedDir,
                Pattern.compile("port (\\d+)"));
    }

    @AfterAll
    static void stopPeers() throws IOException {
        if (peer != null) {
            peer.close();
        }
        if (fileServer != null) {
            fileServer.close();
        }
        if (servedDir != null) {
            try (var files = Files.list(servedDir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(servedDir);
        }
    }

    @BeforeEach
    void newClient(EventLoop loop) {
        client = HttpClient.create(loop);
    }

    @AfterEach
    void closeClient() {
        client.close();
    }

    private String text(String path) throws IOException {
        try (HttpClientResponse response = client.get(peer.url(path))) {
            assertEquals(200, response.status(), path);
            return response.body().text();
        }
    }

    @AsyncTest
    void keepAliveCarriesTheNextRequestOnTheSameConnection() throws IOException {
        String first = text("/conn");
        assertEquals(1, client.idleConnections(peer.url("/")));
        String second = text("/conn");
        assertEquals(first, second, "the second request reused the first one's connection");
        assertEquals(1, client.openConnections(peer.url("/")));
    }

    @AsyncTest
    void decodesAChunkedBodyWithExtensionsAndTrailers() throws IOException {
        assertEquals("hello, world", text("/chunked"));
        assertEquals(1, client.idleConnections(peer.url("/")), "a chunked response read to its end is reusable");
    }

    @AsyncTest
    void aResponseSayingCloseIsNotPooled() throws IOException {
        String first = text("/close");
        assertEquals(0, client.idleConnections(peer.url("/")));
        assertNotEquals(first, text("/close"), "each request went on a new connection");
    }

    @AsyncTest
    void aBodyWithoutFramingEndsWithTheConnection() throws IOException {
        assertEquals("until the end", text("/eof"));
        assertEquals(0, client.idleConnections(peer.url("/")), "a connection read until close is never pooled");
    }

    @AsyncTest
    void headHasNoBodyWhateverItsContentLengthSays() throws IOException {
        try (HttpClientResponse response = client.send(HttpClientRequest.of("HEAD", java.net.URI.create(peer.url("/conn"))))) {
            assertEquals(200, response.status());
            assertTrue(Integer.parseInt(response.header("Content-Length")) > 0);
            assertArrayEquals(new byte[0], response.body().readAll());
        }
        assertEquals(1, client.idleConnections(peer.url("/")), "after a HEAD the connection carries the next request");
        text("/conn");
    }

    @AsyncTest
    void aMalformedResponseFailsAndItsConnectionIsClosed() throws IOException {
        IOException e = assertThrows(IOException.class, () -> client.get(peer.url("/bad")));
        assertTrue(e.getMessage().contains("bad response"), e.getMessage());
        assertEquals(0, client.idleConnections(peer.url("/")));
        awaitNoConnections();
    }

    @AsyncTest
    void aKeepAliveConnectionTheServerDropsIsRetriedOnANewOne() throws IOException {
        String first = text("/drop-second");
        String second = text("/drop-second"); // the server drops the reused connection at this request
        assertNotEquals(first, second, "the request was sent again on a new connection");
    }

    @AsyncTest
    void postsABodyOfKnownLength() throws IOException {
        byte[] body = new byte[100_000];
        try (HttpClientResponse response = client.send(HttpClientRequest.post(peer.url("/echo"), RequestBody.of(body)))) {
            assertEquals("100000", response.body().text());
        }
    }

    @AsyncTest
    void streamsARequestBodyOfUnknownLengthChunked() throws IOException {
        RequestBody stream = RequestBody.streaming(-1, out -> {
            for (int i = 0; i < 10; i++) {
                out.write(new byte[1000 + i]);
                sleep(0); // the writer may yield between chunks
            }
        });
        try (HttpClientResponse response = client.send(HttpClientRequest.post(peer.url("/echo"), stream))) {
            assertEquals(String.valueOf(10 * 1000 + 45), response.body().text());
        }
    }

    @AsyncTest
    void aStreamingBodyShorterThanDeclaredFailsTheRequest() {
        RequestBody tooShort = RequestBody.streaming(10, out -> out.write(new byte[5]));
        // the peer waits for the 5 missing bytes: the client must fail the request itself, within seconds
        Throwable thrown = assertThrows(Throwable.class,
                () -> waitFor(() -> client.send(HttpClientRequest.post(peer.url("/echo"), tooShort)), 3.0));
        IOException e = assertInstanceOf(IOException.class, thrown, "the client waited for the peer instead of failing");
        assertTrue(e.getMessage().contains("5 of its declared 10"), e.getMessage());
    }

    @AsyncTest
    void readsAFileFromPythonsOwnHttpServer() throws IOException {
        String url = "http://127.0.0.1:" + fileServer.port() + "/hello.txt";
        try (HttpClientResponse response = client.get(url)) {
            assertEquals(200, response.status());
            assertEquals(HttpVersion.HTTP_1_0, response.version());
            assertEquals("a file served by http.server\n", response.body().text());
        }
        assertEquals(0, client.idleConnections(url), "an HTTP/1.0 response without keep-alive ends its connection");
        try (HttpClientResponse missing = client.get("http://127.0.0.1:" + fileServer.port() + "/missing")) {
            assertEquals(404, missing.status());
            missing.body().readAll();
        }
    }

    /** Waits up to 5 s until the client's connections to the peer are gone, and asserts they are. */
    private void awaitNoConnections() {
        for (int i = 0; i < 500 && client.openConnections(peer.url("/")) != 0; i++) {
            sleep(0.01);
        }
        assertEquals(0, client.openConnections(peer.url("/")), "the client's connections to the peer were not closed");
    }
}
