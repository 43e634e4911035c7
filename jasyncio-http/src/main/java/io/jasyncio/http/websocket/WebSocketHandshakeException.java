package io.jasyncio.http.websocket;

import java.io.IOException;

/**
 * The opening handshake failed: a client's request was not a valid WebSocket upgrade (the server
 * answered it with {@link #status()}), or a server's answer was not a valid 101 (its status, or
 * 101 with a wrong field).
 */
public final class WebSocketHandshakeException extends IOException {
    private final int status;

    public WebSocketHandshakeException(int status, String message) {
        super(message);
        this.status = status;
    }

    /** The HTTP status of the refusal (or of the server's answer). */
    public int status() {
        return status;
    }
}
