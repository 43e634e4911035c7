package io.jasyncio.http.websocket;

/** WebSocket close codes (RFC 6455 §7.4.1, and IANA's registry). */
public final class CloseCodes {
    /** The purpose of the connection was fulfilled. */
    public static final int NORMAL = 1000;
    /** A server going down or a browser leaving the page. */
    public static final int GOING_AWAY = 1001;
    public static final int PROTOCOL_ERROR = 1002;
    /** A message of a type this end cannot take (text where only binary is understood). */
    public static final int UNSUPPORTED_DATA = 1003;
    /** No code was in the close frame (never sent). */
    public static final int NO_STATUS = 1005;
    /** The connection was lost without a close frame (never sent). */
    public static final int ABNORMAL = 1006;
    /** Text that is not UTF-8, or data that does not decompress. */
    public static final int INVALID_PAYLOAD = 1007;
    public static final int POLICY_VIOLATION = 1008;
    public static final int MESSAGE_TOO_BIG = 1009;
    /** A client's: the server did not agree to an extension it needs. */
    public static final int MANDATORY_EXTENSION = 1010;
    /** An unexpected condition, and the keep-alive ping's timeout. */
    public static final int INTERNAL_ERROR = 1011;
    public static final int SERVICE_RESTART = 1012;
    public static final int TRY_AGAIN_LATER = 1013;

    private CloseCodes() {
    }
}
