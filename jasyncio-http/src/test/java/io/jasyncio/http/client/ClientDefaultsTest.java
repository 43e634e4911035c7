package io.jasyncio.http.client;

import io.jasyncio.Asyncio;
import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.task.ThrowingCoroutine;
import io.jasyncio.task.TimeoutException;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The client's defaults for services (issue 35), against CPython's http.server on loopback, on
 * every loop: a response-head and a read-idle timeout by default, a field-count limit that can be
 * raised, trailers, limit messages that name the limit, idle connections closed at their expiry,
 * and the pool keeping time with one timer rather than one per request. Each wait that a fault
 * would make endless is bounded by {@link #within}, which fails by assertion.
 */
@OnEveryLoop
@EveryEngine
class ClientDefaultsTest {
    @RegisterExtension
    static final PythonPeerExtension peer = new PythonPeerExtension();

    /** Coroutine: {@code body}'s outcome, or an assertion failure if it has none within {@code seconds}. */
    private static <T> T within(double seconds, ThrowingCoroutine<T, IOException> body) throws IOException {
        try {
            return Asyncio.waitFor(body, seconds);
        } catch (TimeoutException e) {
            return fail("still waiting after " + seconds + " s: the client's own timeout never fired");
        }
    }

    @Test
    void aServiceClientHasAHeadAndAReadIdleTimeoutByDefault() {
        HttpClientOptions defaults = HttpClientOptions.defaults();
        assertEquals(30.0, defaults.responseHeadersTimeout());
        assertEquals(30.0, defaults.readIdleTimeout());
        assertEquals(256, defaults.maxResponseHeaderFields());
        assertEquals(0.25, defaults.withReadIdleTimeout(Duration.ofMillis(250)).readIdleTimeout());
        assertTrue(Double.isNaN(defaults.withResponseHeadersTimeout((Duration) null).responseHeadersTimeout()),
                "a null Duration is no timeout");
    }

    @AsyncTest
    void aServerThatAcceptsAndNeverAnswersFailsTheCallerAtTheHeadTimeout(EventLoop loop) throws IOException {
        HttpClientOptions options = HttpClientOptions.defaults().withResponseHeadersTimeout(Duration.ofMillis(300));
        try (HttpClient client = HttpClient.create(loop, options)) {
            HttpTimeoutException e = within(5, () -> assertThrows(HttpTimeoutException.class,
                    () -> client.get(peer.url("/never"))));
            assertEquals(HttpTimeoutException.Phase.RESPONSE_HEADERS, e.phase());
            assertTrue(e.getMessage().contains("within 0.3 s (responseHeadersTimeout)"), e.getMessage());
            while (client.openConnections(peer.url("/")) != 0) { // bounded by the test's timeout: closing is quick
                sleep(0.01);
            }
        }
    }

    @AsyncTest
    void aHeadTrickledAByteAtATimeFailsAtTheHeadTimeoutAlthoughBytesKeepComing(EventLoop loop) throws IOException {
        // a byte every 0.2 s keeps the 1 s read-idle timeout from firing: only the head's own deadline can
        HttpClientOptions options = HttpClientOptions.defaults().withResponseHeadersTimeout(Duration.ofMillis(1200))
                .withReadIdleTimeout(Duration.ofSeconds(1));
        try (HttpClient client = HttpClient.create(loop, options)) {
            HttpTimeoutException e = within(5, () -> assertThrows(HttpTimeoutException.class,
                    () -> client.get(peer.url("/trickle-head"))));
            assertEquals(HttpTimeoutException.Phase.RESPONSE_HEADERS, e.phase());
            assertTrue(e.getMessage().contains("(responseHeadersTimeout)"), e.getMessage());
        }
    }

    @AsyncTest
    void aBodyTheServerStopsSendingFailsItsReaderAtTheReadIdleTimeout(EventLoop loop) throws IOException {
        HttpClientOptions options = HttpClientOptions.defaults().withReadIdleTimeout(Duration.ofMillis(300));
        try (HttpClient client = HttpClient.create(loop, options);
             HttpClientResponse response = client.get(peer.url("/stall-body"))) {
            assertEquals(200, response.status());
            HttpTimeoutException e = within(5, () -> assertThrows(HttpTimeoutException.class,
                    () -> response.body().readAll()));
            assertTrue(e.getMessage().contains("for 0.3 s in the response to"), e.getMessage());
            assertTrue(e.getMessage().contains("(readIdleTimeout)"), e.getMessage());
        }
    }

    @AsyncTest
    void aServerThatStopsReadingTheRequestBodyFailsTheSenderAtTheReadIdleTimeout(EventLoop loop) throws IOException {
        // CPython reads the head of POST /unread and never the body: once the socket buffers are full, the
        // client's writes wait on the server, and only the read-idle timeout can end that wait
        HttpClientOptions options = HttpClientOptions.defaults().withReadIdleTimeout(Duration.ofMillis(300));
        byte[] piece = new byte[64 * 1024];
        long most = 1L << 30; // bounded: far more than loopback's socket buffers hold
        RequestBody endless = RequestBody.streaming(-1, out -> {
            for (long sent = 0; sent < most; sent += piece.length) {
                out.write(piece);
            }
        });
        try (HttpClient client = HttpClient.create(loop, options)) {
            HttpTimeoutException e = within(5, () -> assertThrows(HttpTimeoutException.class,
                    () -> client.send(HttpClientRequest.post(peer.url("/unread"), endless))));
            assertEquals(HttpTimeoutException.Phase.REQUEST, e.phase());
            assertTrue(e.getMessage().contains("read nothing of POST") && e.getMessage().contains("for 0.3 s (readIdleTimeout)"),
                    e.getMessage());
        }
    }

    @AsyncTest
    void aReaderSlowerThanTheReadIdleTimeoutIsNotTheServersSilence(EventLoop loop) throws IOException {
        int size = 1024 * 1024;
        HttpClientOptions options = HttpClientOptions.defaults().withReadIdleTimeout(Duration.ofMillis(200))
                .withBodyBufferBytes(16 * 1024);
        try (HttpClient client = HttpClient.create(loop, options);
             HttpClientResponse response = client.get(peer.url("/big?n=" + size))) {
            long read = 0;
            java.nio.ByteBuffer b;
            for (int pause = 0; (b = response.body().read()) != null; pause++) {
                read += b.remaining();
                if (pause < 3) {
                    sleep(0.5); // the socket is paused meanwhile: longer than the read-idle timeout
                }
            }
            assertEquals(size, read, "the whole body, though the reader paused longer than readIdleTimeout");
        }
    }

    @AsyncTest
    void aHeadOf150SetCookieFieldsIsReadWithTheDefaultsAndALowerLimitIsNamed(EventLoop loop) throws IOException {
        try (HttpClient client = HttpClient.create(loop)) {
            HttpClientResponse response = client.get(peer.url("/cookies?n=150"));
            List<String> cookies = response.headers().getAll("Set-Cookie");
            assertEquals(150, cookies.size());
            assertEquals("c149=149; Path=/", cookies.getLast());
            assertEquals("ok", response.body().text());
        }
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withMaxResponseHeaderFields(100))) {
            IOException e = assertThrows(IOException.class, () -> client.get(peer.url("/cookies?n=150")));
            assertTrue(e.getMessage().contains("maxResponseHeaderFields 100 fields"), e.getMessage());
        }
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withMaxResponseHeadBytes(1024))) {
            IOException e = assertThrows(IOException.class, () -> client.get(peer.url("/cookies?n=150")));
            assertTrue(e.getMessage().contains("maxResponseHeadBytes 1024 bytes"), e.getMessage());
        }
    }

    @AsyncTest
    void aChunkedResponsesTrailersAreReadableAfterItsBody(EventLoop loop) throws IOException {
        try (HttpClient client = HttpClient.create(loop);
             HttpClientResponse response = client.get(peer.url("/chunked"))) {
            assertEquals("hello, world", response.body().text());
            assertEquals("yes", response.trailers().get("X-Trailer"));
        }
        try (HttpClient client = HttpClient.create(loop);
             HttpClientResponse response = client.get(peer.url("/conn"))) {
            response.body().readAll();
            assertEquals(0, response.trailers().size(), "a Content-Length body has no trailers");
        }
        try (HttpClient client = HttpClient.create(loop);
             HttpClientResponse response = client.get(peer.url("/stall-body"))) {
            IllegalStateException early = assertThrows(IllegalStateException.class, response::trailers);
            assertTrue(early.getMessage().contains("read the body to its end first"), early.getMessage());
        }
    }

    @AsyncTest
    void anIdlePooledConnectionIsClosedAtItsExpiry(EventLoop loop) throws IOException {
        HttpClientOptions options = HttpClientOptions.defaults().withIdleTimeout(Duration.ofMillis(200));
        try (HttpClient client = HttpClient.create(loop, options)) {
            client.get(peer.url("/conn")).body().readAll();
            assertEquals(1, client.idleConnections(peer.url("/")));
            double deadline = loop.time() + 3;
            while (client.openConnections(peer.url("/")) != 0) {
                assertTrue(loop.time() < deadline, "an idle connection with a 0.2 s expiry was still open after 3 s");
                sleep(0.02);
            }
            assertEquals(0, client.idleConnections(peer.url("/")));
        }
    }

    @AsyncTest
    void thePoolKeepsTimeWithOneTimerNotOnePerRequest(EventLoop loop) throws IOException {
        int requests = 30; // http.server answers one a ~40 ms (its writes meet delayed ACKs): ~1.3 s
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withRequestTimeout(30))) {
            client.get(peer.url("/conn")).body().readAll(); // the connection, and the sweep, exist
            long scheduledBefore = loop.timersScheduledTotal();
            long cancelledBefore = loop.timersCancelledTotal();
            for (int i = 0; i < requests; i++) {
                client.get(peer.url("/conn")).body().readAll();
            }
            long scheduled = loop.timersScheduledTotal() - scheduledBefore;
            long cancelled = loop.timersCancelledTotal() - cancelledBefore;
            // Each request has three deadlines (head, read idle, request) and an idle period: a
            // timer each would be 120. The sweep fires once per tick (1 s here) at most, and the
            // request timeout's acquire is not timed when a connection is idle.
            assertTrue(scheduled < 15, scheduled + " timers scheduled for " + requests + " requests");
            assertTrue(cancelled < 15, cancelled + " timers cancelled for " + requests + " requests");
        }
    }
}
