package io.jasyncio.http.websocket;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.RecordCopy;
import io.jasyncio.net.TlsOptions;

import java.util.List;

/**
 * How a WebSocket connection behaves, server or client (defaults as Python's {@code websockets}):
 * <ul>
 * <li>{@code maxMessageSize}, {@code maxFrameSize}: the largest message (after decompression)
 *     and frame accepted; larger ones close the connection with 1009. 1 MiB.</li>
 * <li>{@code receiveQueue}: messages a {@link WebSocket} holds unreceived before it stops reading
 *     the socket (reading resumes at a quarter of it). 16.</li>
 * <li>{@code writeHighWater}: bytes buffered for the socket above which sending waits. 64 KiB.</li>
 * <li>{@code pingInterval}, {@code pingTimeout}: seconds between keep-alive pings, and how long a
 *     pong may take before the connection is closed with 1011; 0 turns keep-alive off. 20 and 20.</li>
 * <li>{@code closeTimeout}: seconds the closing handshake may take before the connection is dropped. 10.</li>
 * <li>{@code openTimeout}: seconds a client's connect and opening handshake may take. 10.</li>
 * <li>{@code compression}: offer (client) or accept (server) permessage-deflate; with
 *     {@code serverNoContextTakeover}/{@code clientNoContextTakeover} asked for, each side's
 *     compressor starts afresh for every message (less memory, less compression).
 *     {@code compressionLevel}: zlib's 0-9 (-1 for its default).</li>
 * <li>{@code subprotocols}: a client's offer, or the ones a server accepts in its order of preference.</li>
 * <li>{@code headers}: extra fields of a client's handshake request (Origin, Authorization ...).</li>
 * <li>{@code tls}: a {@code wss://} client's TLS settings (null: the system default).</li>
 * </ul>
 */
public record WebSocketOptions(long maxMessageSize, long maxFrameSize, int receiveQueue, int writeHighWater,
                               double pingInterval, double pingTimeout, double closeTimeout, double openTimeout,
                               boolean compression, boolean serverNoContextTakeover, boolean clientNoContextTakeover,
                               int compressionLevel, List<String> subprotocols, HttpHeaders headers, TlsOptions tls) {
    public WebSocketOptions {
        if (maxMessageSize < 1 || maxFrameSize < 1 || receiveQueue < 1 || writeHighWater < 1) {
            throw new IllegalArgumentException("sizes and the queue must be positive");
        }
        if (pingInterval < 0 || pingTimeout < 0 || closeTimeout <= 0 || openTimeout <= 0) {
            throw new IllegalArgumentException("timeouts must be positive (ping ones may be 0: off)");
        }
        if (compressionLevel < -1 || compressionLevel > 9) {
            throw new IllegalArgumentException("compression level -1..9, not " + compressionLevel);
        }
        subprotocols = List.copyOf(subprotocols);
        headers = headers.frozenCopy();
    }

    public static WebSocketOptions defaults() {
        return new WebSocketOptions(1 << 20, 1 << 20, 16, 64 * 1024, 20, 20, 10, 10, true, false, false, -1,
                List.of(), HttpHeaders.empty(), null);
    }

    /** Sets both the message and the frame limit. */
    public WebSocketOptions withMaxMessageSize(long bytes) {
        return RecordCopy.with(RecordCopy.with(this, WebSocketOptions::maxMessageSize, bytes), WebSocketOptions::maxFrameSize, bytes);
    }

    public WebSocketOptions withMaxFrameSize(long bytes) {
        return RecordCopy.with(this, WebSocketOptions::maxFrameSize, bytes);
    }

    public WebSocketOptions withReceiveQueue(int messages) {
        return RecordCopy.with(this, WebSocketOptions::receiveQueue, messages);
    }

    public WebSocketOptions withWriteHighWater(int bytes) {
        return RecordCopy.with(this, WebSocketOptions::writeHighWater, bytes);
    }

    /** Keep-alive: a ping every {@code interval} seconds, answered within {@code timeout}; (0, 0) turns it off. */
    public WebSocketOptions withPing(double interval, double timeout) {
        return RecordCopy.with(RecordCopy.with(this, WebSocketOptions::pingInterval, interval), WebSocketOptions::pingTimeout, timeout);
    }

    public WebSocketOptions withCloseTimeout(double seconds) {
        return RecordCopy.with(this, WebSocketOptions::closeTimeout, seconds);
    }

    public WebSocketOptions withOpenTimeout(double seconds) {
        return RecordCopy.with(this, WebSocketOptions::openTimeout, seconds);
    }

    public WebSocketOptions withCompression(boolean on) {
        return RecordCopy.with(this, WebSocketOptions::compression, on);
    }

    /** permessage-deflate's context-takeover options (RFC 7692 §7.1.1): true asks that side to start afresh every message. */
    public WebSocketOptions withNoContextTakeover(boolean server, boolean client) {
        return RecordCopy.with(RecordCopy.with(this, WebSocketOptions::serverNoContextTakeover, server),
                WebSocketOptions::clientNoContextTakeover, client);
    }

    public WebSocketOptions withCompressionLevel(int level) {
        return RecordCopy.with(this, WebSocketOptions::compressionLevel, level);
    }

    public WebSocketOptions withSubprotocols(String... names) {
        return RecordCopy.with(this, WebSocketOptions::subprotocols, List.of(names));
    }

    public WebSocketOptions withHeaders(HttpHeaders fields) {
        return RecordCopy.with(this, WebSocketOptions::headers, fields);
    }

    public WebSocketOptions withTls(TlsOptions value) {
        return RecordCopy.with(this, WebSocketOptions::tls, value);
    }
}
