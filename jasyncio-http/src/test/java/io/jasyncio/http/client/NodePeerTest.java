package io.jasyncio.http.client;

import io.jasyncio.http.HttpResponse;
import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.gather;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client against Node's {@code http} server, on every loop: a plain response, Node's chunked
 * writes, a streamed upload under write flow control, and the per-origin limits of the pool.
 */
@OnEveryLoop
@EveryEngine
class NodePeerTest {
    private static PeerProcess peer;

    @BeforeAll
    static void startPeer() throws IOException {
        peer = PeerProcess.node();
    }

    @AfterAll
    static void stopPeer() {
        if (peer != null) {
            peer.close();
        }
    }

    @AsyncTest
    void getsHelloWorld(EventLoop loop) throws IOException {
        try (HttpClient client = HttpClient.create(loop);
             HttpClientResponse response = client.get(peer.url("/hello"))) {
            assertEquals(200, response.status());
            assertEquals("text/plain", response.header("content-type"));
            assertEquals("Hello, world!", response.body().text());
        }
    }

    @AsyncTest
    void readsNodesChunkedWrites(EventLoop loop) throws IOException {
        try (HttpClient client = HttpClient.create(loop);
             HttpClientResponse response = client.get(peer.url("/chunked"))) {
            assertEquals("chunked", response.header("Transfer-Encoding"));
            assertEquals("one,two,three", response.body().text());
        }
    }

    @AsyncTest(timeout = 30)
    void streamsAnUploadOfKnownLength(EventLoop loop) throws IOException {
        RequestBody upload = RequestBody.streaming(10 * 100_000, out -> {
            for (int i = 0; i < 10; i++) {
                out.write(new byte[100_000]);
            }
        });
        try (HttpClient client = HttpClient.create(loop);
             HttpClientResponse response = client.send(HttpClientRequest.post(peer.url("/upload"), upload))) {
            assertEquals("1000000", response.body().text());
        }
    }

    @AsyncTest
    void requestsBeyondTheLimitWaitForAPooledConnection(EventLoop loop) throws IOException {
        int before = Integer.parseInt(connectionCount(loop));
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withMaxConnectionsPerOrigin(2))) {
            List<Future<String>> all = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                all.add(createTask(() -> {
                    try (HttpClientResponse r = client.get(peer.url("/conn"))) {
                        return r.body().text();
                    }
                }));
            }
            List<String> ids = await(gather(all));
            assertTrue(ids.stream().distinct().count() <= 2, "six requests on at most two connections: " + ids);
            assertEquals(2, client.openConnections(peer.url("/")));
        }
        int accepted = Integer.parseInt(connectionCount(loop)) - before;
        assertTrue(accepted <= 3, "the server accepted " + accepted + " connections (two, and one for the count)");
    }

    @AsyncTest
    void idleConnectionsBeyondTheIdleLimitAreClosed(EventLoop loop) throws IOException {
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults()
                .withMaxConnectionsPerOrigin(3).withMaxIdlePerOrigin(1))) {
            List<Future<HttpClientResponse>> heads = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                heads.add(createTask(() -> client.get(peer.url("/hello"))));
            }
            for (HttpClientResponse r : await(gather(heads))) { // three connections busy at once
                r.body().readAll();
            }
            assertEquals(1, client.idleConnections(peer.url("/")));
        }
    }

    @AsyncTest
    void anIdleConnectionExpires(EventLoop loop) throws IOException {
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withIdleTimeout(0.05))) {
            client.get(peer.url("/hello")).body().readAll();
            assertEquals(1, client.idleConnections(peer.url("/")));
            while (client.openConnections(peer.url("/")) != 0) {
                io.jasyncio.Asyncio.sleep(0.01); // bounded by the test's timeout
            }
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void plainThreadsGetCompletableFutures(String loopName) throws Exception {
        EventLoop loop = io.jasyncio.loop.EventLoops.newEventLoop(loopName);
        Thread loopThread = Thread.ofPlatform().name("http-client-loop").start(loop::runForever);
        try (HttpClient client = HttpClient.create(loop)) {
            List<java.util.concurrent.CompletableFuture<HttpResponse>> futures = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < 5; i++) {
                        synchronized (futures) {
                            futures.add(client.getAsync(peer.url("/hello")));
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join(10_000);
            }
            for (var f : futures) {
                HttpResponse r = f.get(20, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals(200, r.status());
                assertEquals("Hello, world!", r.bodyText());
            }
            assertEquals(20, futures.size());
        } finally {
            loop.callSoonThreadsafe(loop::stop);
            loopThread.join(10_000);
            loop.close();
        }
    }

    private static String connectionCount(EventLoop loop) throws IOException {
        try (HttpClient counter = HttpClient.create(loop);
             HttpClientResponse r = counter.get(peer.url("/connections"))) {
            return r.body().text();
        }
    }
}
