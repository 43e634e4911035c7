package io.jasyncio.http.websocket;

/**
 * The callback form of a WebSocket connection, for speed: the loop calls these as frames arrive,
 * no task per connection, no queue. One listener may serve many connections (each call names
 * its connection). Pings are answered by the connection. A listener that cannot keep up pauses
 * reading ({@link WebSocketConnection#pauseReading()}); one that sends waits for
 * {@link #onWritable} when {@link WebSocketConnection#isWritable()} is false (reading is paused
 * meanwhile, so a peer that sends without reading cannot fill this end's memory).
 */
public interface WebSocketListener {
    /** The handshake is done: messages may be sent. */
    default void onOpen(WebSocketConnection connection) {
    }

    default void onText(WebSocketConnection connection, String text) {
    }

    default void onBinary(WebSocketConnection connection, byte[] data) {
    }

    /** A ping arrived (the pong is sent already). */
    default void onPing(WebSocketConnection connection, byte[] payload) {
    }

    default void onPong(WebSocketConnection connection, byte[] payload) {
    }

    /** The write buffer drained below its low-water mark: sending may go on. */
    default void onWritable(WebSocketConnection connection) {
    }

    /**
     * The connection is over (the TCP connection too), once, last: {@code code} and
     * {@code reason} as {@link WebSocketClosedException} says.
     */
    default void onClose(WebSocketConnection connection, int code, String reason) {
    }
}
