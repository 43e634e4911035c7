package io.jasyncio.http.websocket.codec;

import java.security.SecureRandom;

/**
 * RFC 6455's sending side, free of I/O: a frame's bytes from its opcode and payload. A client's
 * encoder masks every frame with a fresh key from a {@link SecureRandom} (§5.3: unpredictable,
 * so that a script cannot choose the bytes an intermediary sees); a server's masks none.
 */
public final class FrameEncoder {
    private static final int KEYS_PER_REFILL = 16;
    /** One generator for every client connection (it is thread-safe; a draw is 16 keys). */
    private static final SecureRandom RANDOM = new SecureRandom();

    private final boolean mask;
    private byte[] keys;
    private int keyOffset;

    /** {@code mask}: true for a client. */
    public FrameEncoder(boolean mask) {
        this.mask = mask;
    }

    /**
     * One frame: {@code fin} ends the message, {@code rsv1} marks a compressed message's first
     * frame; {@code length} bytes of payload from {@code offset}. A new array, header and payload.
     */
    public byte[] frame(int opcode, boolean fin, boolean rsv1, byte[] payload, int offset, int length) {
        int lengthBytes = length < 126 ? 0 : length < 65536 ? 2 : 8;
        int headerLength = 2 + lengthBytes + (mask ? 4 : 0);
        byte[] frame = new byte[headerLength + length];
        frame[0] = (byte) ((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode);
        int length7 = lengthBytes == 0 ? length : lengthBytes == 2 ? 126 : 127;
        frame[1] = (byte) ((mask ? 0x80 : 0) | length7);
        for (int i = 0; i < lengthBytes; i++) {
            frame[2 + i] = (byte) ((long) length >>> 8 * (lengthBytes - 1 - i));
        }
        System.arraycopy(payload, offset, frame, headerLength, length);
        if (mask) {
            int keyAt = 2 + lengthBytes;
            nextKey(frame, keyAt);
            for (int i = 0; i < length; i++) {
                frame[headerLength + i] ^= frame[keyAt + (i & 3)];
            }
        }
        return frame;
    }

    /** A close frame's payload: the code (big-endian) and the reason, cut to fit 125 bytes whole characters. */
    public static byte[] closePayload(int code, String reason) {
        byte[] text = reason.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int length = Math.min(text.length, Opcodes.MAX_CONTROL_PAYLOAD - 2);
        while (length > 0 && length < text.length && (text[length] & 0xc0) == 0x80) {
            length--; // not in the middle of a character
        }
        byte[] payload = new byte[2 + length];
        payload[0] = (byte) (code >>> 8);
        payload[1] = (byte) code;
        System.arraycopy(text, 0, payload, 2, length);
        return payload;
    }

    private void nextKey(byte[] into, int at) {
        if (keys == null || keyOffset == keys.length) {
            if (keys == null) {
                keys = new byte[4 * KEYS_PER_REFILL]; // on the first frame: an idle connection holds none
            }
            RANDOM.nextBytes(keys); // one draw for many frames: the generator is costly per call
            keyOffset = 0;
        }
        System.arraycopy(keys, keyOffset, into, at, 4);
        keyOffset += 4;
    }
}
