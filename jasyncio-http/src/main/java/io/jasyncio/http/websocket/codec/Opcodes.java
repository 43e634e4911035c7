package io.jasyncio.http.websocket.codec;

/** RFC 6455 §5.2's frame opcodes and the close codes (§7.4) the codec sends or checks. */
public final class Opcodes {
    public static final int CONTINUATION = 0x0;
    public static final int TEXT = 0x1;
    public static final int BINARY = 0x2;
    public static final int CLOSE = 0x8;
    public static final int PING = 0x9;
    public static final int PONG = 0xA;

    /** A control frame's payload is at most this long (§5.5). */
    public static final int MAX_CONTROL_PAYLOAD = 125;

    public static final int NORMAL_CLOSURE = 1000;
    public static final int GOING_AWAY = 1001;
    public static final int PROTOCOL_ERROR = 1002;
    public static final int NO_STATUS_RECEIVED = 1005;
    public static final int ABNORMAL_CLOSURE = 1006;
    public static final int INVALID_PAYLOAD = 1007;
    public static final int POLICY_VIOLATION = 1008;
    public static final int MESSAGE_TOO_BIG = 1009;
    public static final int INTERNAL_ERROR = 1011;

    private Opcodes() {
    }

    /** Whether {@code opcode} names a control frame (close, ping, pong, or a reserved one). */
    public static boolean isControl(int opcode) {
        return (opcode & 0x8) != 0;
    }

    /**
     * Whether {@code code} may travel in a close frame (§7.4): the defined codes 1000-1003 and
     * 1007-1014 (1012-1014 registered since), and 3000-4999 for libraries and applications. 1004,
     * 1005, 1006 and 1015 are reserved, never sent.
     */
    public static boolean isSendableCloseCode(int code) {
        return code >= 1000 && code <= 1003 || code >= 1007 && code <= 1014 || code >= 3000 && code <= 4999;
    }
}
