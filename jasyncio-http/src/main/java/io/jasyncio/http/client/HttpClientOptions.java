package io.jasyncio.http.client;

import io.jasyncio.http.RecordCopy;
import io.jasyncio.net.TlsOptions;

import java.time.Duration;

/**
 * How an {@link HttpClient} pools and times its connections. Each origin (scheme, host, port)
 * has its own pool: at most {@code maxConnectionsPerOrigin} open at once (a request beyond them
 * waits for one to come back), at most {@code maxIdlePerOrigin} kept idle, each idle one closed
 * after {@code idleTimeout} seconds.
 *
 * <p>Timeouts are in seconds, NaN for none (each {@code with...} has a {@link Duration} overload;
 * {@code null} there means none):
 * <ul>
 *   <li>{@code connectTimeout} (default 10 s): resolving, connecting and the TLS handshake.</li>
 *   <li>{@code responseHeadersTimeout} (default 30 s): from the end of the request to the end of
 *       its response's head, however the head's bytes trickle in (a server that accepts and never
 *       answers, or sends its head a byte a second, fails here).</li>
 *   <li>{@code readIdleTimeout} (default 30 s): from the end of the request to the end of the
 *       response, the longest wait for the next byte from the server; it does not run while the
 *       socket is paused because the body's reader is behind (the reader's pace is not the
 *       server's). Its {@link HttpTimeoutException#phase()} is {@code RESPONSE_HEADERS} before the
 *       head arrived and {@code REQUEST} after. A body trickled a byte at a time never trips it:
 *       {@code requestTimeout} is the deadline for that.</li>
 *   <li>{@code requestTimeout} (default none): from the call to the response body's last byte,
 *       waiting for a pooled connection included: the deadline of the whole exchange.</li>
 * </ul>
 * A fired timeout fails the caller (or its body's reader) with {@link HttpTimeoutException} and
 * closes the connection. These deadlines, and the idle expiry, are kept by one timer per client
 * that sweeps its connections (no timer per request), so each fires at its time or up to 1/16 of
 * itself later (at most 1 s later).
 *
 * <p>{@code tls} is used for {@code https} origins (null: the system's trusted authorities).
 * {@code maxResponseHeadBytes} bounds a response's status line and header fields together (and,
 * separately, its trailer fields); {@code maxResponseHeaderFields} bounds their count: the byte
 * limit bounds memory, the count the cost per field, and the default (256) leaves room for
 * responses that set many cookies (150 {@code Set-Cookie} fields are seen in the wild).
 * {@code bodyBufferBytes} is how much of a response body is read ahead of its reader before the
 * socket is paused. A request that says {@code Expect: 100-continue} sends its head, then its
 * body once the 100 (Continue) comes, or after {@code expectContinueTimeout} seconds without one
 * (servers that ignore the expectation).
 */
public record HttpClientOptions(int maxConnectionsPerOrigin, int maxIdlePerOrigin, double idleTimeout,
                                double connectTimeout, double responseHeadersTimeout, double readIdleTimeout,
                                double requestTimeout, TlsOptions tls, int maxResponseHeadBytes,
                                int maxResponseHeaderFields, int bodyBufferBytes, double expectContinueTimeout) {
    /** As browsers and OkHttp: a handful of connections per origin. */
    public static final int DEFAULT_MAX_CONNECTIONS_PER_ORIGIN = 8;
    public static final int DEFAULT_MAX_IDLE_PER_ORIGIN = 8;
    /** Below the 60 s or so most servers keep an idle connection, so the client closes first. */
    public static final double DEFAULT_IDLE_TIMEOUT = 30.0;
    public static final double DEFAULT_CONNECT_TIMEOUT = 10.0;
    /**
     * A service's caller should not hang on a server that accepted and never answers: 30 s is far
     * above an ordinary upstream's response time and far below "forever" (the JDK's and Netty's
     * default; Go's and Node's users add one).
     */
    public static final double DEFAULT_RESPONSE_HEADERS_TIMEOUT = 30.0;
    /** The longest silence from the server within a response, as OkHttp's read timeout (10 s there). */
    public static final double DEFAULT_READ_IDLE_TIMEOUT = 30.0;
    public static final int DEFAULT_MAX_RESPONSE_HEAD_BYTES = 64 * 1024;
    /** Room for responses with many {@code Set-Cookie} fields; the byte limit above bounds the memory. */
    public static final int DEFAULT_MAX_RESPONSE_HEADER_FIELDS = 256;
    /** asyncio's stream limit: the body's read-ahead before the socket is paused. */
    public static final int DEFAULT_BODY_BUFFER_BYTES = 64 * 1024;
    /** As curl and Go: a server that sends no 100 (Continue) within a second gets the body anyway. */
    public static final double DEFAULT_EXPECT_CONTINUE_TIMEOUT = 1.0;

    public HttpClientOptions {
        if (maxConnectionsPerOrigin < 1) {
            throw new IllegalArgumentException("maxConnectionsPerOrigin must be >= 1, got " + maxConnectionsPerOrigin);
        }
        if (maxIdlePerOrigin < 0) {
            throw new IllegalArgumentException("maxIdlePerOrigin must be >= 0, got " + maxIdlePerOrigin);
        }
        requirePositiveOrNaN("idleTimeout", idleTimeout);
        requirePositiveOrNaN("connectTimeout", connectTimeout);
        requirePositiveOrNaN("responseHeadersTimeout", responseHeadersTimeout);
        requirePositiveOrNaN("readIdleTimeout", readIdleTimeout);
        requirePositiveOrNaN("requestTimeout", requestTimeout);
        if (!(expectContinueTimeout > 0)) {
            throw new IllegalArgumentException("expectContinueTimeout must be a positive number of seconds, got " + expectContinueTimeout);
        }
        if (maxResponseHeadBytes < 64) {
            throw new IllegalArgumentException("maxResponseHeadBytes must be >= 64, got " + maxResponseHeadBytes);
        }
        if (maxResponseHeaderFields < 1) {
            throw new IllegalArgumentException("maxResponseHeaderFields must be >= 1, got " + maxResponseHeaderFields);
        }
        if (bodyBufferBytes < 1) {
            throw new IllegalArgumentException("bodyBufferBytes must be >= 1, got " + bodyBufferBytes);
        }
    }

    private static void requirePositiveOrNaN(String name, double seconds) {
        if (!Double.isNaN(seconds) && !(seconds > 0)) {
            throw new IllegalArgumentException(name + " must be a positive number of seconds (NaN: none), got " + seconds);
        }
    }

    /**
     * 8 connections and 8 idle per origin, idle ones closed after 30 s; 10 s to connect, 30 s for
     * a response's head, 30 s of silence within a response, no deadline for the whole exchange;
     * a response head of at most 64 KiB and 256 fields.
     */
    public static HttpClientOptions defaults() {
        return new HttpClientOptions(DEFAULT_MAX_CONNECTIONS_PER_ORIGIN, DEFAULT_MAX_IDLE_PER_ORIGIN,
                DEFAULT_IDLE_TIMEOUT, DEFAULT_CONNECT_TIMEOUT, DEFAULT_RESPONSE_HEADERS_TIMEOUT, DEFAULT_READ_IDLE_TIMEOUT,
                Double.NaN, null, DEFAULT_MAX_RESPONSE_HEAD_BYTES, DEFAULT_MAX_RESPONSE_HEADER_FIELDS,
                DEFAULT_BODY_BUFFER_BYTES, DEFAULT_EXPECT_CONTINUE_TIMEOUT);
    }

    /** The smallest of the timeouts the client's sweep keeps (idle, response head, read idle, request), or NaN. */
    double shortestSweptTimeout() {
        double shortest = Double.NaN;
        for (double t : new double[]{idleTimeout, responseHeadersTimeout, readIdleTimeout, requestTimeout}) {
            if (!Double.isNaN(t) && (Double.isNaN(shortest) || t < shortest)) {
                shortest = t;
            }
        }
        return shortest;
    }

    private static double seconds(Duration d) {
        return d == null ? Double.NaN : d.toNanos() / 1e9;
    }

    public HttpClientOptions withMaxConnectionsPerOrigin(int value) {
        return RecordCopy.with(this, HttpClientOptions::maxConnectionsPerOrigin, value);
    }

    public HttpClientOptions withMaxIdlePerOrigin(int value) {
        return RecordCopy.with(this, HttpClientOptions::maxIdlePerOrigin, value);
    }

    public HttpClientOptions withIdleTimeout(double seconds) {
        return RecordCopy.with(this, HttpClientOptions::idleTimeout, seconds);
    }

    public HttpClientOptions withIdleTimeout(Duration timeout) {
        return withIdleTimeout(seconds(timeout));
    }

    public HttpClientOptions withConnectTimeout(double seconds) {
        return RecordCopy.with(this, HttpClientOptions::connectTimeout, seconds);
    }

    public HttpClientOptions withConnectTimeout(Duration timeout) {
        return withConnectTimeout(seconds(timeout));
    }

    public HttpClientOptions withResponseHeadersTimeout(double seconds) {
        return RecordCopy.with(this, HttpClientOptions::responseHeadersTimeout, seconds);
    }

    public HttpClientOptions withResponseHeadersTimeout(Duration timeout) {
        return withResponseHeadersTimeout(seconds(timeout));
    }

    public HttpClientOptions withReadIdleTimeout(double seconds) {
        return RecordCopy.with(this, HttpClientOptions::readIdleTimeout, seconds);
    }

    public HttpClientOptions withReadIdleTimeout(Duration timeout) {
        return withReadIdleTimeout(seconds(timeout));
    }

    public HttpClientOptions withRequestTimeout(double seconds) {
        return RecordCopy.with(this, HttpClientOptions::requestTimeout, seconds);
    }

    public HttpClientOptions withRequestTimeout(Duration timeout) {
        return withRequestTimeout(seconds(timeout));
    }

    public HttpClientOptions withTls(TlsOptions value) {
        return RecordCopy.with(this, HttpClientOptions::tls, value);
    }

    public HttpClientOptions withMaxResponseHeadBytes(int value) {
        return RecordCopy.with(this, HttpClientOptions::maxResponseHeadBytes, value);
    }

    /** How many header fields a response head (or its trailers) may have. */
    public HttpClientOptions withMaxResponseHeaderFields(int value) {
        return RecordCopy.with(this, HttpClientOptions::maxResponseHeaderFields, value);
    }

    public HttpClientOptions withBodyBufferBytes(int value) {
        return RecordCopy.with(this, HttpClientOptions::bodyBufferBytes, value);
    }

    /** How long a request with {@code Expect: 100-continue} waits for the 100 before it sends its body anyway. */
    public HttpClientOptions withExpectContinueTimeout(double seconds) {
        return RecordCopy.with(this, HttpClientOptions::expectContinueTimeout, seconds);
    }
}
