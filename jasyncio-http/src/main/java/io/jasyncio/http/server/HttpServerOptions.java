package io.jasyncio.http.server;

import io.jasyncio.http.HttpLimits;
import io.jasyncio.http.RecordCopy;
import io.jasyncio.net.ServerOptions;

import java.time.Duration;

/**
 * How an {@link HttpServer} serves: the parser's limits, the timeouts (seconds) and the buffering
 * marks that bound what one connection holds.
 *
 * <p>Every timeout is set in either unit: each {@code with...} taking seconds has a {@link Duration}
 * overload, and {@link #withRequestTimeout(Duration)} (the one component held as a {@code Duration})
 * a seconds overload. Timeouts must be positive.
 *
 * @param limits              request line, header and body limits (414, 431, 413)
 * @param headerTimeout       from a request's first byte to the end of its head; then 408 and close (slowloris)
 * @param idleTimeout         a keep-alive connection without a request this long is closed quietly
 * @param bodyReadTimeout     a request body that makes no progress this long, while the server reads it: 408 (or an abort once the response began) and close
 * @param sendTimeout         response bytes waiting in the transport with none taken by the client this long: the connection is dropped (a client that stops reading)
 * @param lingerTimeout       closing while the client may still be sending (after a refusal, or a body left unread), the server half-closes and reads and drops what comes for at most this long before it closes (RFC 9112 §9.6), so the client is not reset before it reads the response
 * @param lingerBytes         ... and at most this many bytes
 * @param readPauseBytes      request bytes held for a handler (body not yet read, pipelined requests) above which the socket is no longer read
 * @param writeHighWater      the transport's write high-water mark: above it a streaming handler's writes wait
 * @param writeLowWater       ... and resume at or below this
 * @param serverOptions       the listening socket's options (backlog, reuse, TLS)
 * @param requestTimeout      from a request's first byte to the end of its body (Node's {@code requestTimeout}, Go's
 *                            {@code ReadTimeout}): past it, 408 (or an abort once the response began) and close, however
 *                            steadily the bytes come, and while a streaming handler holds the body back too
 * @param minRequestBodyRate  the floor on the rate a request body arrives while the server reads it (Kestrel's
 *                            {@code MinRequestBodyDataRate}); below it, 408 (or an abort) and close; null: no floor
 * @param minResponseRate     the floor on the rate a client takes response bytes while some wait for it (Kestrel's
 *                            {@code MinResponseDataRate}); below it, the connection is dropped; null: no floor
 * @param bodyBufferBudget    bytes the server may hold, summed over all its connections (and loops), in request bodies
 *                            it gathers whole for an {@link HttpHandler}; a body that would take it past this is refused
 *                            with 503 ({@code Retry-After: 1}) and its connection closed. With N connections the heap held in request bytes is
 *                            at most this plus N x ({@code readPauseBytes} + one read buffer): announcing a body costs
 *                            nothing, only bytes received count
 * @param handlerCancellation whether a handler whose client has gone (connection lost, or closed by the client while
 *                            the handler runs with nothing after its request) is cancelled: asyncio's
 *                            {@code CancelledError} at its next await. Either way {@link HttpExchange#clientConnected()}
 *                            tells
 */
public record HttpServerOptions(HttpLimits limits, double headerTimeout, double idleTimeout, double bodyReadTimeout,
                                double sendTimeout, double lingerTimeout, long lingerBytes,
                                int readPauseBytes, int writeHighWater, int writeLowWater, ServerOptions serverOptions,
                                Duration requestTimeout, MinDataRate minRequestBodyRate, MinDataRate minResponseRate,
                                long bodyBufferBudget, boolean handlerCancellation) {
    /** A quarter of the heap the JVM may grow to. */
    private static final long DEFAULT_BODY_BUFFER_BUDGET = Runtime.getRuntime().maxMemory() / 4;
    private static final MinDataRate DEFAULT_MIN_RATE = MinDataRate.of(240, Duration.ofSeconds(5));
    private static final HttpServerOptions DEFAULTS = new HttpServerOptions(HttpLimits.defaults(), 10, 60, 30, 60, 2,
            1024 * 1024, 64 * 1024, 64 * 1024, 16 * 1024, ServerOptions.defaults().withBacklog(1024),
            Duration.ofSeconds(300), DEFAULT_MIN_RATE, DEFAULT_MIN_RATE, DEFAULT_BODY_BUFFER_BUDGET, true);

    public HttpServerOptions {
        if (!(headerTimeout > 0 && idleTimeout > 0 && bodyReadTimeout > 0 && sendTimeout > 0 && lingerTimeout > 0)) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
        if (!requestTimeout.isPositive() || bodyBufferBudget < 0) {
            throw new IllegalArgumentException("bad request timeout or body budget: " + requestTimeout + ", " + bodyBufferBudget);
        }
        if (lingerBytes < 0 || readPauseBytes < 1 || writeLowWater < 0 || writeHighWater < writeLowWater) {
            throw new IllegalArgumentException("bad buffer marks: " + lingerBytes + ", " + readPauseBytes + ", "
                    + writeHighWater + ", " + writeLowWater);
        }
    }

    /**
     * Default limits; 10 s for a head, 60 s idle, 30 s without body progress, 60 s without the
     * client taking response bytes; lingering up to 2 s and 1 MiB; 64 KiB held, 64/16 KiB write
     * marks; backlog 1024; 300 s for a whole request; request bodies and responses at 240 B/s at least
     * after 5 s (Kestrel's defaults); a quarter of the maximum heap for whole request bodies; handlers
     * cancelled when their client goes.
     */
    public static HttpServerOptions defaults() {
        return DEFAULTS;
    }

    /**
     * The shortest timeout, which sets how often the server looks at its connections' deadlines.
     * Not the linger's: a lingering close may last a sweep longer, and a short linger need not
     * make every connection's timeouts checked more often.
     */
    double shortestTimeout() {
        double shortest = Math.min(Math.min(headerTimeout, idleTimeout), Math.min(bodyReadTimeout, sendTimeout));
        shortest = Math.min(shortest, Timeouts.seconds(requestTimeout));
        for (MinDataRate floor : new MinDataRate[] {minRequestBodyRate, minResponseRate}) {
            if (floor != null) {
                shortest = Math.min(shortest, Math.max(Timeouts.seconds(floor.gracePeriod()), 0.05));
            }
        }
        return shortest;
    }

    public HttpServerOptions withLimits(HttpLimits value) {
        return RecordCopy.with(this, HttpServerOptions::limits, value);
    }

    public HttpServerOptions withHeaderTimeout(double seconds) {
        return RecordCopy.with(this, HttpServerOptions::headerTimeout, seconds);
    }

    public HttpServerOptions withHeaderTimeout(Duration timeout) {
        return withHeaderTimeout(Timeouts.seconds(timeout));
    }

    public HttpServerOptions withIdleTimeout(double seconds) {
        return RecordCopy.with(this, HttpServerOptions::idleTimeout, seconds);
    }

    public HttpServerOptions withIdleTimeout(Duration timeout) {
        return withIdleTimeout(Timeouts.seconds(timeout));
    }

    public HttpServerOptions withBodyReadTimeout(double seconds) {
        return RecordCopy.with(this, HttpServerOptions::bodyReadTimeout, seconds);
    }

    public HttpServerOptions withBodyReadTimeout(Duration timeout) {
        return withBodyReadTimeout(Timeouts.seconds(timeout));
    }

    public HttpServerOptions withSendTimeout(double seconds) {
        return RecordCopy.with(this, HttpServerOptions::sendTimeout, seconds);
    }

    public HttpServerOptions withSendTimeout(Duration timeout) {
        return withSendTimeout(Timeouts.seconds(timeout));
    }

    /** Lingering before a close (see {@link #lingerTimeout()}): at most {@code seconds} and {@code bytes}. */
    public HttpServerOptions withLinger(double seconds, long bytes) {
        return new HttpServerOptions(limits, headerTimeout, idleTimeout, bodyReadTimeout, sendTimeout, seconds,
                bytes, readPauseBytes, writeHighWater, writeLowWater, serverOptions, requestTimeout, minRequestBodyRate,
                minResponseRate, bodyBufferBudget, handlerCancellation);
    }

    /** As {@link #withLinger(double, long)}. */
    public HttpServerOptions withLinger(Duration timeout, long bytes) {
        return withLinger(Timeouts.seconds(timeout), bytes);
    }

    public HttpServerOptions withReadPauseBytes(int bytes) {
        return RecordCopy.with(this, HttpServerOptions::readPauseBytes, bytes);
    }

    public HttpServerOptions withWriteBufferLimits(int high, int low) {
        return new HttpServerOptions(limits, headerTimeout, idleTimeout, bodyReadTimeout, sendTimeout, lingerTimeout,
                lingerBytes, readPauseBytes, high, low, serverOptions, requestTimeout, minRequestBodyRate,
                minResponseRate, bodyBufferBudget, handlerCancellation);
    }

    public HttpServerOptions withServerOptions(ServerOptions value) {
        return RecordCopy.with(this, HttpServerOptions::serverOptions, value);
    }

    /** The deadline for a whole request, head and body (see {@link #requestTimeout()}). */
    public HttpServerOptions withRequestTimeout(Duration value) {
        return RecordCopy.with(this, HttpServerOptions::requestTimeout, value);
    }

    /** As {@link #withRequestTimeout(Duration)}, in seconds. */
    public HttpServerOptions withRequestTimeout(double seconds) {
        return withRequestTimeout(Timeouts.duration(seconds));
    }

    /** The floor on a request body's rate (see {@link #minRequestBodyRate()}); null for none. */
    public HttpServerOptions withMinRequestBodyRate(MinDataRate value) {
        return RecordCopy.with(this, HttpServerOptions::minRequestBodyRate, value);
    }

    /** The floor on the rate a client takes its response (see {@link #minResponseRate()}); null for none. */
    public HttpServerOptions withMinResponseRate(MinDataRate value) {
        return RecordCopy.with(this, HttpServerOptions::minResponseRate, value);
    }

    /** The bytes all connections together may hold in whole request bodies (see {@link #bodyBufferBudget()}). */
    public HttpServerOptions withBodyBufferBudget(long bytes) {
        return RecordCopy.with(this, HttpServerOptions::bodyBufferBudget, bytes);
    }

    /** Whether a handler whose client has gone is cancelled (see {@link #handlerCancellation()}). */
    public HttpServerOptions withHandlerCancellation(boolean value) {
        return RecordCopy.with(this, HttpServerOptions::handlerCancellation, value);
    }
}
