package io.jasyncio.http.websocket.codec;

/**
 * The peer broke RFC 6455 (or a limit): the connection must be failed with {@link #closeCode()}
 * (1002 protocol error, 1007 invalid payload data, 1009 message too big, ...) and {@link #getMessage()}
 * as the close reason.
 */
public final class ProtocolError extends Exception {
    private final int closeCode;

    public ProtocolError(int closeCode, String reason) {
        super(reason, null, false, false);
        this.closeCode = closeCode;
    }

    public int closeCode() {
        return closeCode;
    }
}
