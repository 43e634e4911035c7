package io.jasyncio.http.client;

import io.jasyncio.Asyncio;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.task.Timeout;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * An HTTP/1.1 client on one event loop, with a keep-alive connection pool per origin (see
 * {@link HttpClientOptions} for its limits and timeouts). On the loop, {@link #send} is a
 * coroutine returning the response as soon as its head arrived, the body to stream; from any
 * other thread, {@link #sendAsync} returns a {@link CompletableFuture} of the whole response.
 *
 * <pre>{@code
 * HttpClient client = HttpClient.create(loop);
 * try (HttpClientResponse response = client.send(HttpClientRequest.get("http://127.0.0.1:8080/"))) {
 *     String text = response.body().text();
 * }
 * }</pre>
 *
 * A request that fails on a connection reused from the pool before any of its response arrived
 * (the server closed the idle connection as the request went out) is sent once more on a new
 * connection, when its method is idempotent (RFC 9110 9.2.2) and its body can be sent again
 * (none, or bytes; not a stream).
 */
public final class HttpClient implements AutoCloseable {
    /** RFC 9110 9.2.2: the methods a client may send again after a failure without knowing more. */
    private static final java.util.Set<String> IDEMPOTENT = java.util.Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT",
            "DELETE");
    private final EventLoop loop;
    private final HttpClientOptions options;
    private final ConnectionPool pool;

    private HttpClient(EventLoop loop, HttpClientOptions options) {
        this.loop = loop;
        this.options = options;
        this.pool = new ConnectionPool(loop, options);
    }

    public static HttpClient create(EventLoop loop) {
        return create(loop, HttpClientOptions.defaults());
    }

    public static HttpClient create(EventLoop loop, HttpClientOptions options) {
        return new HttpClient(Objects.requireNonNull(loop, "loop"), Objects.requireNonNull(options, "options"));
    }

    public EventLoop loop() {
        return loop;
    }

    public HttpClientOptions options() {
        return options;
    }

    /**
     * Coroutine, on the client's loop: sends {@code request} and returns its response once the
     * head arrived. Throws {@link HttpTimeoutException} when one of the options' timeouts fired,
     * an {@link IOException} when the connection failed or the response was malformed.
     */
    public HttpClientResponse send(HttpClientRequest request) throws IOException {
        checkLoopThread();
        Origin origin = Origin.of(request.uri());
        double timeout = request.timeoutOr(options.requestTimeout());
        double deadline = Double.isNaN(timeout) ? Double.NaN : loop.time() + timeout;
        boolean replayable = IDEMPOTENT.contains(request.method())
                && (request.body() instanceof RequestBody.Empty || request.body() instanceof RequestBody.Bytes);
        for (int attempt = 1; ; attempt++) {
            ClientConnection connection = acquire(origin, request, timeout, deadline);
            boolean reused = connection.reused();
            try {
                return connection.exchange(request, timeout, deadline);
            } catch (HttpTimeoutException e) {
                throw e;
            } catch (IOException e) {
                if (attempt > 1 || !reused || !replayable || connection.heardBack()) {
                    throw e;
                }
                // a stale keep-alive connection: once more on a fresh one
            }
        }
    }

    /** Coroutine: GET {@code uri}. */
    public HttpClientResponse get(String uri) throws IOException {
        return send(HttpClientRequest.get(uri));
    }

    /** Coroutine: a pooled connection, within the request's deadline. */
    private ClientConnection acquire(Origin origin, HttpClientRequest request, double timeout, double deadline)
            throws IOException {
        ClientConnection idle = pool.takeIdle(origin);
        if (idle != null) {
            return idle; // no wait, so no deadline to keep (and no timer per request)
        }
        if (Double.isNaN(deadline)) {
            return pool.acquire(origin);
        }
        try {
            return Timeout.at(deadline).run(() -> pool.acquire(origin));
        } catch (io.jasyncio.task.TimeoutException e) {
            throw new HttpTimeoutException(HttpTimeoutException.Phase.REQUEST, request + " found no connection within "
                    + timeout + " s");
        }
    }

    /**
     * From any thread: sends {@code request} on the client's loop (which must be running) and
     * completes with the whole response, its body read, or with the failure. Cancelling the
     * future cancels the exchange (its connection is closed). The future completes on the loop
     * thread: chain heavy work with the {@code *Async} methods.
     */
    public CompletableFuture<HttpResponse> sendAsync(HttpClientRequest request) {
        Objects.requireNonNull(request, "request");
        return Asyncio.runCoroutineThreadsafe(() -> {
            try (HttpClientResponse response = send(request)) {
                return response.readFully();
            }
        }, loop);
    }

    /** From any thread: GET {@code uri}, the whole response. */
    public CompletableFuture<HttpResponse> getAsync(String uri) {
        return sendAsync(HttpClientRequest.get(uri));
    }

    /** Connections open to the origin of {@code uri} (idle, busy or connecting), on the loop thread. */
    public int openConnections(String uri) {
        checkLoopThread();
        return pool.openConnections(Origin.of(java.net.URI.create(uri)));
    }

    /** Idle connections kept for the origin of {@code uri}, on the loop thread. */
    public int idleConnections(String uri) {
        checkLoopThread();
        return pool.idleConnections(Origin.of(java.net.URI.create(uri)));
    }

    /**
     * Refuses new requests and closes the idle connections; a connection in use closes when its
     * exchange ends. From any thread (off the loop it runs on the loop soon).
     */
    @Override
    public void close() {
        if (EventLoops.runningLoopOrNull() == loop) {
            pool.close();
        } else if (!loop.isClosed()) {
            loop.callSoonThreadsafe(pool::close);
        }
    }

    private void checkLoopThread() {
        if (EventLoops.runningLoopOrNull() != loop) { // a task body may run on its own thread (the threads engine)
            throw new IllegalStateException("HttpClient.send runs on its loop's thread (" + loop.thread()
                    + "); from other threads use sendAsync");
        }
    }
}
