package io.jasyncio.http.codec;

import io.jasyncio.http.HttpParseException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RefusalTest {
    private static final byte[] DATE = "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n".getBytes(StandardCharsets.US_ASCII);

    private static String refusal(int status, String reason) {
        return new String(Refusal.encode(new HttpParseException(status, reason), DATE), StandardCharsets.US_ASCII);
    }

    @Test
    void aRefusalSaysWhyAndCloses() {
        String text = refusal(400, "bad");
        assertTrue(text.startsWith("HTTP/1.1 400 Bad Request\r\n"), text);
        assertTrue(text.contains("\r\nConnection: close\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n400 bad\n"), text);
        assertTrue(text.contains("Content-Length: 8\r\n"), text);
        assertFalse(text.contains("Retry-After"), text);
    }

    @Test
    void aBusyServerAsksTheClientToComeBack() {
        String text = refusal(503, "busy");
        assertTrue(text.contains("\r\nConnection: close\r\nRetry-After: 1\r\nDate: "), text);
    }
}
