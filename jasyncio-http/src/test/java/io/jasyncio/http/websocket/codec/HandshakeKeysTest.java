package io.jasyncio.http.websocket.codec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HandshakeKeysTest {
    @Test
    void answersRfc6455sSampleKey() {
        assertEquals("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", HandshakeKeys.accept("dGhlIHNhbXBsZSBub25jZQ=="));
    }

    @Test
    void keysAreSixteenRandomBytes() {
        String a = HandshakeKeys.newKey();
        assertTrue(HandshakeKeys.isValidKey(a));
        assertNotEquals(a, HandshakeKeys.newKey());
        assertFalse(HandshakeKeys.isValidKey("dGhlIHNhbXBsZSBub25jZQ"));
        assertFalse(HandshakeKeys.isValidKey("AAAAAAAAAAAAAAAAAAAAAAA="), "24 characters, but 17 bytes");
        assertFalse(HandshakeKeys.isValidKey(null));
    }
}
