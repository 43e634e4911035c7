package io.jasyncio.http.server;

import io.jasyncio.http.HttpLimits;
import io.jasyncio.net.ServerOptions;

/**
 * How an {@link HttpServer} serves: the parser's limits, the timeouts (seconds) and the buffering
 * marks that bound what one connection holds.
 *
 * @param limits              request line, header and body limits (414, 431, 413)
 * @param headerTimeout       from a request's first byte to the end of its head; then 408 and close (slowloris)
 * @param idleTimeout         a keep-alive connection without a request this long is closed quietly
 * @param bodyReadTimeout     a request body that makes no progress this long, while the server reads it: 408 (or an abort once the response began) and close
 * @param readPauseBytes      request bytes held for a handler (body not yet read, pipelined requests) above which the socket is no longer read
 * @param writeHighWater      the transport's write high-water mark: above it a streaming handler's writes wait
 * @param writeLowWater       ... and resume at or below this
 * @param serverOptions       the listening socket's options (backlog, reuse, TLS)
 */
public record HttpServerOptions(HttpLimits limits, double headerTimeout, double idleTimeout, double bodyReadTimeout,
                                int readPauseBytes, int writeHighWater, int writeLowWater, ServerOptions serverOptions) {
    private static final HttpServerOptions DEFAULTS = new HttpServerOptions(HttpLimits.defaults(), 10, 60, 30,
            64 * 1024, 64 * 1024, 16 * 1024, ServerOptions.defaults().withBacklog(1024));

    public HttpServerOptions {
        if (!(headerTimeout > 0 && idleTimeout > 0 && bodyReadTimeout > 0)) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
        if (readPauseBytes < 1 || writeLowWater < 0 || writeHighWater < writeLowWater) {
            throw new IllegalArgumentException("bad buffer marks: " + readPauseBytes + ", " + writeHighWater + ", " + writeLowWater);
        }
    }

    /** Default limits; 10 s for a head, 60 s idle, 30 s without body progress; 64 KiB held, 64/16 KiB write marks; backlog 1024. */
    public static HttpServerOptions defaults() {
        return DEFAULTS;
    }

    public HttpServerOptions withLimits(HttpLimits value) {
        return new HttpServerOptions(value, headerTimeout, idleTimeout, bodyReadTimeout, readPauseBytes, writeHighWater,
                writeLowWater, serverOptions);
    }

    public HttpServerOptions withHeaderTimeout(double seconds) {
        return new HttpServerOptions(limits, seconds, idleTimeout, bodyReadTimeout, readPauseBytes, writeHighWater,
                writeLowWater, serverOptions);
    }

    public HttpServerOptions withIdleTimeout(double seconds) {
        return new HttpServerOptions(limits, headerTimeout, seconds, bodyReadTimeout, readPauseBytes, writeHighWater,
                writeLowWater, serverOptions);
    }

    public HttpServerOptions withBodyReadTimeout(double seconds) {
        return new HttpServerOptions(limits, headerTimeout, idleTimeout, seconds, readPauseBytes, writeHighWater,
                writeLowWater, serverOptions);
    }

    public HttpServerOptions withReadPauseBytes(int bytes) {
        return new HttpServerOptions(limits, headerTimeout, idleTimeout, bodyReadTimeout, bytes, writeHighWater,
                writeLowWater, serverOptions);
    }

    public HttpServerOptions withWriteBufferLimits(int high, int low) {
        return new HttpServerOptions(limits, headerTimeout, idleTimeout, bodyReadTimeout, readPauseBytes, high, low,
                serverOptions);
    }

    public HttpServerOptions withServerOptions(ServerOptions value) {
        return new HttpServerOptions(limits, headerTimeout, idleTimeout, bodyReadTimeout, readPauseBytes, writeHighWater,
                writeLowWater, value);
    }
}
