package io.jasyncio.http.codec;

import io.jasyncio.http.HttpHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ChunkedCodingTest {
    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    @Test
    void aChunkHeadIsItsSizeInHex() {
        assertEquals("1\r\n", text(ChunkedCoding.chunkHead(1)));
        assertEquals("ff\r\n", text(ChunkedCoding.chunkHead(255)));
        assertEquals("10000\r\n", text(ChunkedCoding.chunkHead(65536)));
        assertEquals("\r\n", text(ChunkedCoding.CHUNK_END));
    }

    @Test
    void anEmptyChunkIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ChunkedCoding.chunkHead(0));
    }

    @Test
    void theLastChunkEndsTheBodyWithItsTrailers() {
        assertEquals("0\r\n\r\n", text(ChunkedCoding.lastChunk(HttpHeaders.empty())));
        assertEquals("0\r\nDigest: x\r\nExpires: y\r\n\r\n",
                text(ChunkedCoding.lastChunk(HttpHeaders.of("Digest", "x", "Expires", "y"))));
    }
}
