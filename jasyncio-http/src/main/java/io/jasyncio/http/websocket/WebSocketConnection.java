package io.jasyncio.http.websocket;

import io.jasyncio.loop.EventLoop;

import java.net.SocketAddress;

/**
 * One WebSocket connection, as a {@link WebSocketListener} drives it: sends never block (they
 * buffer; {@link #isWritable()} says when to stop), and return false once the closing handshake
 * began (the message is dropped). Use it on its loop only.
 */
public interface WebSocketConnection {
    boolean sendText(String text);

    /** Sends {@code data} as a binary message (it must not change until sent: it may be buffered as is). */
    boolean sendBinary(byte[] data);

    /**
     * Sends one message in fragments, {@code parts} in order: a continuation frame each after the
     * first (uncompressed). {@code text}: a text message, whose parts together must be UTF-8.
     */
    boolean sendFragmented(boolean text, byte[]... parts);

    /** Sends a ping (at most 125 bytes of payload). */
    boolean ping(byte[] payload);

    /** Sends an unsolicited pong (a heartbeat that expects no answer). */
    boolean pong(byte[] payload);

    /**
     * Starts the closing handshake with {@code code} (1000, or 3000-4999 for the application) and
     * {@code reason} (cut to 123 bytes); the connection ends when the peer answers, or after the
     * close timeout. Idempotent.
     */
    void close(int code, String reason);

    /** Drops the connection at once, without a closing handshake. */
    void abort();

    /** Whether the write buffer is below its high-water mark. */
    boolean isWritable();

    /** Bytes buffered for the socket, not yet sent. */
    long bufferedAmount();

    /** Stops reading the socket until {@link #resumeReading()} (the peer is then held back by TCP). */
    void pauseReading();

    void resumeReading();

    /** Whether the connection is open: no close frame sent or received. */
    boolean isOpen();

    /** The subprotocol agreed in the handshake, or null. */
    String subprotocol();

    /** The {@code Sec-WebSocket-Extensions} agreed, or null. */
    String extensions();

    SocketAddress remoteAddress();

    EventLoop loop();
}
