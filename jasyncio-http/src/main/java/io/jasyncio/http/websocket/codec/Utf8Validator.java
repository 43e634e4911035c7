package io.jasyncio.http.websocket.codec;

/**
 * Incremental UTF-8 validation (RFC 3629) for text messages: bytes are fed as they arrive, across
 * frame and read boundaries, and the first byte that cannot belong to well-formed UTF-8 (an
 * overlong form, a surrogate, a code point above U+10FFFF, a stray continuation byte) is caught
 * at once, before the rest of the message comes.
 */
public final class Utf8Validator {
    private static final int ACCEPT = 0;
    private static final int NEED_1 = 1;      // one continuation byte 80..BF
    private static final int NEED_2 = 2;      // two continuation bytes
    private static final int NEED_3 = 3;      // three continuation bytes
    private static final int AFTER_E0 = 4;    // A0..BF, then one more
    private static final int AFTER_ED = 5;    // 80..9F (no surrogates), then one more
    private static final int AFTER_F0 = 6;    // 90..BF, then two more
    private static final int AFTER_F4 = 7;    // 80..8F (at most U+10FFFF), then two more
    private static final int REJECT = 8;

    private int state = ACCEPT;

    /** Feeds {@code length} bytes from {@code offset}; false once the bytes so far cannot be UTF-8. */
    public boolean feed(byte[] bytes, int offset, int length) {
        int s = state;
        int end = offset + length;
        for (int i = offset; i < end && s != REJECT; i++) {
            int b = bytes[i] & 0xff;
            if (s == ACCEPT) {
                if (b < 0x80) {
                    continue;
                }
                s = lead(b);
            } else {
                s = continuation(s, b);
            }
        }
        state = s;
        return s != REJECT;
    }

    /** Whether the bytes fed so far end on a character boundary (a message may end here). */
    public boolean isComplete() {
        return state == ACCEPT;
    }

    /** Forgets the bytes fed, for the next message. */
    public void reset() {
        state = ACCEPT;
    }

    /** Whether {@code length} bytes from {@code offset} are whole, well-formed UTF-8. */
    public static boolean isValid(byte[] bytes, int offset, int length) {
        Utf8Validator v = new Utf8Validator();
        return v.feed(bytes, offset, length) && v.isComplete();
    }

    private static int lead(int b) {
        if (b >= 0xc2 && b <= 0xdf) {
            return NEED_1;
        }
        if (b == 0xe0) {
            return AFTER_E0;
        }
        if (b == 0xed) {
            return AFTER_ED;
        }
        if (b >= 0xe1 && b <= 0xef) {
            return NEED_2;
        }
        if (b == 0xf0) {
            return AFTER_F0;
        }
        if (b >= 0xf1 && b <= 0xf3) {
            return NEED_3;
        }
        if (b == 0xf4) {
            return AFTER_F4;
        }
        return REJECT; // 80..C1 (a continuation byte, or an overlong two-byte lead), F5..FF
    }

    private static int continuation(int s, int b) {
        return switch (s) {
            case NEED_1 -> in(b, 0x80, 0xbf) ? ACCEPT : REJECT;
            case NEED_2 -> in(b, 0x80, 0xbf) ? NEED_1 : REJECT;
            case NEED_3 -> in(b, 0x80, 0xbf) ? NEED_2 : REJECT;
            case AFTER_E0 -> in(b, 0xa0, 0xbf) ? NEED_1 : REJECT;
            case AFTER_ED -> in(b, 0x80, 0x9f) ? NEED_1 : REJECT;
            case AFTER_F0 -> in(b, 0x90, 0xbf) ? NEED_2 : REJECT;
            case AFTER_F4 -> in(b, 0x80, 0x8f) ? NEED_2 : REJECT;
            default -> REJECT;
        };
    }

    private static boolean in(int b, int low, int high) {
        return b >= low && b <= high;
    }
}
