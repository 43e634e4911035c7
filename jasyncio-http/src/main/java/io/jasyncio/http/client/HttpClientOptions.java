package io.jasyncio.http.client;

import io.jasyncio.http.RecordCopy;
import io.jasyncio.net.TlsOptions;

/**
 * How an {@link HttpClient} pools and times its connections. Each origin (scheme, host, port)
 * has its own pool: at most {@code maxConnectionsPerOrigin} open at once (a request beyond them
 * waits for one to come back), at most {@code maxIdlePerOrigin} kept idle, each idle one closed
 * after {@code idleTimeout} seconds. Timeouts are in seconds, NaN for none: {@code connectTimeout}
 * for resolving, connecting and the TLS handshake; {@code responseHeadersTimeout} from the end of
 * the request to its response's head; {@code requestTimeout} from the call to the response body's
 * last byte (waiting for a pooled connection included). {@code tls} is used for {@code https}
 * origins (null: the system's trusted authorities). {@code maxResponseHeadBytes} bounds a
 * response's status line and headers; {@code bodyBufferBytes} is how much of a response body is
 * read ahead of its reader before the socket is paused. A request that says
 * {@code Expect: 100-continue} sends its head, then its body once the 100 (Continue) comes, or
 * after {@code expectContinueTimeout} seconds without one (servers that ignore the expectation).
 */
public record HttpClientOptions(int maxConnectionsPerOrigin, int maxIdlePerOrigin, double idleTimeout,
                                double connectTimeout, double responseHeadersTimeout, double requestTimeout,
                                TlsOptions tls, int maxResponseHeadBytes, int bodyBufferBytes,
                                double expectContinueTimeout) {
    /** As browsers and OkHttp: a handful of connections per origin. */
    public static final int DEFAULT_MAX_CONNECTIONS_PER_ORIGIN = 8;
    public static final int DEFAULT_MAX_IDLE_PER_ORIGIN = 8;
    /** Below the 60 s or so most servers keep an idle connection, so the client closes first. */
    public static final double DEFAULT_IDLE_TIMEOUT = 30.0;
    public static final double DEFAULT_CONNECT_TIMEOUT = 10.0;
    public static final int DEFAULT_MAX_RESPONSE_HEAD_BYTES = 64 * 1024;
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
        requirePositiveOrNaN("requestTimeout", requestTimeout);
        if (!(expectContinueTimeout > 0)) {
            throw new IllegalArgumentException("expectContinueTimeout must be a positive number of seconds, got " + expectContinueTimeout);
        }
        if (maxResponseHeadBytes < 64) {
            throw new IllegalArgumentException("maxResponseHeadBytes must be >= 64, got " + maxResponseHeadBytes);
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

    /** 8 connections and 8 idle per origin, idle ones closed after 30 s, 10 s to connect, no other timeout. */
    public static HttpClientOptions defaults() {
        return new HttpClientOptions(DEFAULT_MAX_CONNECTIONS_PER_ORIGIN, DEFAULT_MAX_IDLE_PER_ORIGIN,
                DEFAULT_IDLE_TIMEOUT, DEFAULT_CONNECT_TIMEOUT, Double.NaN, Double.NaN, null,
                DEFAULT_MAX_RESPONSE_HEAD_BYTES, DEFAULT_BODY_BUFFER_BYTES, DEFAULT_EXPECT_CONTINUE_TIMEOUT);
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

    public HttpClientOptions withConnectTimeout(double seconds) {
        return RecordCopy.with(this, HttpClientOptions::connectTimeout, seconds);
    }

    public HttpClientOptions withResponseHeadersTimeout(double seconds) {
        return RecordCopy.with(this, HttpClientOptions::responseHeadersTimeout, seconds);
    }

    public HttpClientOptions withRequestTimeout(double seconds) {
        return RecordCopy.with(this, HttpClientOptions::requestTimeout, seconds);
    }

    public HttpClientOptions withTls(TlsOptions value) {
        return RecordCopy.with(this, HttpClientOptions::tls, value);
    }

    public HttpClientOptions withMaxResponseHeadBytes(int value) {
        return RecordCopy.with(this, HttpClientOptions::maxResponseHeadBytes, value);
    }

    public HttpClientOptions withBodyBufferBytes(int value) {
        return RecordCopy.with(this, HttpClientOptions::bodyBufferBytes, value);
    }

    /** How long a request with {@code Expect: 100-continue} waits for the 100 before it sends its body anyway. */
    public HttpClientOptions withExpectContinueTimeout(double seconds) {
        return RecordCopy.with(this, HttpClientOptions::expectContinueTimeout, seconds);
    }
}
