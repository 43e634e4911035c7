package io.jasyncio.http.websocket;

import java.io.IOException;

/**
 * The WebSocket connection is closed (Python websockets' {@code ConnectionClosed}): thrown by a
 * receive once every message before the close was received, and by a send after the close. The
 * code and reason are the peer's close frame's ({@link CloseCodes#NO_STATUS} if it had none),
 * else the ones this end failed the connection with, else {@link CloseCodes#ABNORMAL} (the
 * connection was lost without a close frame).
 */
public final class WebSocketClosedException extends IOException {
    private final int code;
    private final String reason;

    public WebSocketClosedException(int code, String reason) {
        super("WebSocket closed: " + code + (reason.isEmpty() ? "" : " " + reason));
        this.code = code;
        this.reason = reason;
    }

    public int code() {
        return code;
    }

    public String reason() {
        return reason;
    }

    /** Whether the connection closed normally (1000, 1001, or a close frame without a code). */
    public boolean isNormal() {
        return code == CloseCodes.NORMAL || code == CloseCodes.GOING_AWAY || code == CloseCodes.NO_STATUS;
    }
}
