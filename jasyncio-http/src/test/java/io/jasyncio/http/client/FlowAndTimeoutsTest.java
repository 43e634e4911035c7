package io.jasyncio.http.client;

import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.loop.EventLoop;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.toThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A response body under flow control (a reader that stops reading pauses the socket) and the
 * client's three timeouts, each against a real socket on loopback, on every loop. A failed
 * exchange never leaves its connection in the pool.
 */
@OnEveryLoop
@EveryEngine
class FlowAndTimeoutsTest {
    private static final int BIG = 16 * 1024 * 1024;
    private static PeerProcess peer;

    @BeforeAll
    static void startPeer() throws IOException {
        peer = PeerProcess.python();
    }

    @AfterAll
    static void stopPeer() {
        if (peer != null) {
            peer.close();
        }
    }

    @AsyncTest(timeout = 60)
    void aReaderThatStopsReadingPausesTheSocket(EventLoop loop) throws IOException {
        int limit = 64 * 1024;
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withBodyBufferBytes(limit));
             HttpClientResponse response = client.get(peer.url("/big?n=" + BIG))) {
            ResponseBody body = response.body();
            long read = body.read().remaining();
            while (body.bufferedBytes() < limit) { // the connection reads ahead, up to the limit
                sleep(0.01);
            }
            assertFalse(body.sourceIsReading(), "the socket is paused once the reader is a limit behind");
            long ahead = body.bufferedBytes();
            sleep(0.2); // the server goes on writing into the kernel's buffers meanwhile
            assertEquals(ahead, body.bufferedBytes(), "nothing more was read while paused");
            ByteBuffer b;
            while ((b = body.read()) != null) {
                read += b.remaining();
            }
            assertEquals(BIG, read, "reading on resumed the socket, to the body's end");
        }
    }

    @AsyncTest
    void aBodyThatEndedWhilePausedLeavesItsConnectionReading(EventLoop loop) throws IOException {
        HttpClientOptions tiny = HttpClientOptions.defaults().withBodyBufferBytes(1).withRequestTimeout(5);
        try (HttpClient client = HttpClient.create(loop, tiny)) {
            HttpClientResponse first = client.get(peer.url("/conn")); // its whole body pauses the socket, then ends
            while (!first.body().isEnded()) {
                sleep(0.01);
            }
            first.close(); // never read: only the pause would have resumed the socket
            String id = client.get(peer.url("/conn")).body().text();
            assertEquals(1, client.openConnections(peer.url("/")), "the second request reused the connection (" + id + ")");
        }
    }

    @AsyncTest
    void closingABodyBeforeItsEndClosesTheConnection(EventLoop loop) throws IOException {
        try (HttpClient client = HttpClient.create(loop)) {
            HttpClientResponse response = client.get(peer.url("/big?n=" + BIG));
            response.body().read();
            response.close();
            assertEquals(0, client.idleConnections(peer.url("/")));
            while (client.openConnections(peer.url("/")) != 0) {
                sleep(0.01);
            }
        }
    }

    @AsyncTest
    void noResponseHeadWithinTheTimeoutFailsAndClosesTheConnection(EventLoop loop) throws IOException {
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withResponseHeadersTimeout(0.2))) {
            HttpTimeoutException e = assertThrows(HttpTimeoutException.class, () -> client.get(peer.url("/never")));
            assertEquals(HttpTimeoutException.Phase.RESPONSE_HEADERS, e.phase());
            assertEquals(0, client.idleConnections(peer.url("/")));
            while (client.openConnections(peer.url("/")) != 0) {
                sleep(0.01);
            }
        }
    }

    @AsyncTest
    void theRequestTimeoutCoversTheBody(EventLoop loop) throws IOException {
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withRequestTimeout(0.3));
             HttpClientResponse response = client.get(peer.url("/stall-body"))) {
            assertEquals(200, response.status(), "the head came in time");
            HttpTimeoutException e = assertThrows(HttpTimeoutException.class, () -> response.body().readAll());
            assertEquals(HttpTimeoutException.Phase.REQUEST, e.phase());
            while (client.openConnections(peer.url("/")) != 0) {
                sleep(0.01);
            }
        }
    }

    @AsyncTest
    void theRequestTimeoutCoversWaitingForAPooledConnection(EventLoop loop) throws IOException {
        HttpClientOptions one = HttpClientOptions.defaults().withMaxConnectionsPerOrigin(1).withRequestTimeout(0.3);
        try (HttpClient client = HttpClient.create(loop, one)) {
            HttpClientRequest stall = HttpClientRequest.get(peer.url("/stall-body")).withTimeout(30);
            HttpClientResponse holder = client.send(stall); // holds the only connection: its body never ends
            HttpTimeoutException e = assertThrows(HttpTimeoutException.class, () -> client.get(peer.url("/conn")));
            assertEquals(HttpTimeoutException.Phase.REQUEST, e.phase());
            holder.close();
        }
    }

    @AsyncTest
    void aConnectThatHangsTimesOut(EventLoop loop) throws IOException {
        // A listener that never accepts, its queue full: the kernel drops further SYNs, so connect hangs.
        try (ServerSocket full = new ServerSocket()) {
            full.bind(new InetSocketAddress("127.0.0.1", 0), 1);
            // Blocking connects, off the loop: the loop must not be held while the queue fills.
            List<Socket> queued = toThread(() -> fillAcceptQueue(full));
            try {
                try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withConnectTimeout(0.2))) {
                    HttpTimeoutException e = assertThrows(HttpTimeoutException.class,
                            () -> client.get("http://127.0.0.1:" + full.getLocalPort() + "/"));
                    assertEquals(HttpTimeoutException.Phase.CONNECT, e.phase());
                    assertEquals(0, client.openConnections("http://127.0.0.1:" + full.getLocalPort() + "/"));
                }
            } finally {
                for (Socket s : queued) {
                    s.close();
                }
            }
        }
    }

    /** Connects to {@code full} until a connect hangs (the accept queue is full); the queued sockets. */
    private static List<Socket> fillAcceptQueue(ServerSocket full) throws IOException {
        List<Socket> queued = new ArrayList<>();
        for (int i = 0; i < 8; i++) { // more than the backlog: the queue is surely full
            Socket s = new Socket();
            try {
                s.connect(full.getLocalSocketAddress(), 100);
                queued.add(s);
            } catch (IOException hung) {
                s.close();
                break; // this one already hung: the queue is full
            }
        }
        return queued;
    }

    @AsyncTest
    void aCancelledRequestClosesItsConnection(EventLoop loop) throws IOException {
        try (HttpClient client = HttpClient.create(loop)) {
            var waiting = createTask(() -> client.get(peer.url("/never")));
            while (client.openConnections(peer.url("/")) == 0) {
                sleep(0.01);
            }
            waiting.cancel();
            assertThrows(io.jasyncio.loop.CancelledError.class, () -> await(waiting));
            while (client.openConnections(peer.url("/")) != 0) { // the connection was closed, not pooled
                sleep(0.01);
            }
            assertEquals(0, client.idleConnections(peer.url("/")));
        }
    }
}
