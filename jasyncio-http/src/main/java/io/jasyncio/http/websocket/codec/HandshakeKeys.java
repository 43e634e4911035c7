package io.jasyncio.http.websocket.codec;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/** The opening handshake's keys (RFC 6455 §4.1, §4.2.2): the client's nonce and the server's proof. */
public final class HandshakeKeys {
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final SecureRandom RANDOM = new SecureRandom();

    private HandshakeKeys() {
    }

    /** A client's {@code Sec-WebSocket-Key}: 16 random bytes, base64. */
    public static String newKey() {
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        return Base64.getEncoder().encodeToString(nonce);
    }

    /** Whether {@code key} is a valid {@code Sec-WebSocket-Key}: base64 of 16 bytes. */
    public static boolean isValidKey(String key) {
        if (key == null || key.length() != 24) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(key).length == 16;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The {@code Sec-WebSocket-Accept} answering {@code key}: base64(SHA-1(key + GUID)). */
    public static String accept(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }
}
