package io.jasyncio.http.websocket.codec;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The UTF-8 validator against RFC 3629's edges, whole and a byte at a time. */
class Utf8ValidatorTest {
    private static byte[] hex(String hex) {
        byte[] b = new byte[hex.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    private static boolean byteByByte(byte[] b) {
        Utf8Validator v = new Utf8Validator();
        for (byte x : b) {
            if (!v.feed(new byte[]{x}, 0, 1)) {
                return false;
            }
        }
        return v.isComplete();
    }

    @Test
    void acceptsWellFormedText() {
        for (String s : new String[]{"", "hello", "κόσμε", "€", "\uD800\uDC00", "\uDBFF\uDFFF", "\uFFFF", "\u0080", "\u07FF", "\u0800"}) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            assertTrue(Utf8Validator.isValid(b, 0, b.length), s);
            assertTrue(byteByByte(b), s);
        }
    }

    @Test
    void refusesWhatIsNotUtf8() {
        String[] bad = {
            "80", "bf", "c0af", "c1bf", "e080af", "f08080af", "eda080", "edbfbf", // stray, overlong, surrogates
            "f4908080", "f5808080", "ff", "fe", "cebae1bdb9cfe3bc83", "e0a0", "f09080"}; // > U+10FFFF, bad leads, truncated
        for (String h : bad) {
            byte[] b = hex(h);
            assertFalse(Utf8Validator.isValid(b, 0, b.length), h);
            assertFalse(byteByByte(b), h);
        }
    }

    @Test
    void failsAtTheFirstBadByteNotAtTheEnd() {
        Utf8Validator v = new Utf8Validator();
        assertTrue(v.feed(hex("cebae1bdb9cf83"), 0, 7));
        assertFalse(v.feed(hex("edA080"), 0, 2), "the surrogate lead ED A0 is refused before its last byte");
    }
}
