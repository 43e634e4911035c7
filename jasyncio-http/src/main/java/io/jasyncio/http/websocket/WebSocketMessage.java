package io.jasyncio.http.websocket;

import java.nio.charset.StandardCharsets;

/** A whole WebSocket message: text (validated UTF-8) or binary. */
public final class WebSocketMessage {
    private final String text;
    private final byte[] bytes;

    private WebSocketMessage(String text, byte[] bytes) {
        this.text = text;
        this.bytes = bytes;
    }

    public static WebSocketMessage text(String text) {
        return new WebSocketMessage(text, null);
    }

    /** A binary message holding {@code bytes} (not copied). */
    public static WebSocketMessage binary(byte[] bytes) {
        return new WebSocketMessage(null, bytes);
    }

    public boolean isText() {
        return text != null;
    }

    /** The text of a text message; a binary one's bytes read as UTF-8. */
    public String text() {
        return text != null ? text : new String(bytes, StandardCharsets.UTF_8);
    }

    /** A binary message's bytes (not a copy); a text message's as UTF-8. */
    public byte[] bytes() {
        return bytes != null ? bytes : text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return isText() ? "text(" + text.length() + " chars)" : "binary(" + bytes.length + " bytes)";
    }
}
