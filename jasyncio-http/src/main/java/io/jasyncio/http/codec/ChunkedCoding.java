package io.jasyncio.http.codec;

import io.jasyncio.http.HttpHead;
import io.jasyncio.http.HttpHeaders;

import java.nio.charset.StandardCharsets;

/**
 * The bytes of the chunked transfer coding (RFC 9112 §7.1) around a body's pieces: each piece is
 * {@link #chunkHead} + the piece + {@link #CHUNK_END}, and {@link #lastChunk} ends the body.
 */
public final class ChunkedCoding {
    /** What follows a chunk's data. Do not change the array. */
    public static final byte[] CHUNK_END = {'\r', '\n'};

    private static final byte[] LAST_CHUNK_ALONE = {'0', '\r', '\n', '\r', '\n'};

    private ChunkedCoding() {
    }

    /** The line before a chunk of {@code size} bytes (above zero: a chunk of zero ends the body). */
    public static byte[] chunkHead(int size) {
        if (size <= 0) {
            throw new IllegalArgumentException("a chunk of " + size + " bytes");
        }
        return (Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** The last chunk, then {@code trailers}' field lines, then the empty line that ends the body. */
    public static byte[] lastChunk(HttpHeaders trailers) {
        if (trailers.isEmpty()) {
            return LAST_CHUNK_ALONE.clone();
        }
        byte[] fields = HttpHead.fieldLines(trailers);
        byte[] all = new byte[3 + fields.length + 2];
        all[0] = '0';
        all[1] = '\r';
        all[2] = '\n';
        System.arraycopy(fields, 0, all, 3, fields.length);
        all[all.length - 2] = '\r';
        all[all.length - 1] = '\n';
        return all;
    }
}
