package io.jasyncio.http;

/**
 * What a parser accepts before it refuses a message: each limit has its status (a request line
 * too long: 414; header fields too large or too many: 431; a body too large: 413).
 *
 * @param maxStartLineLength the request line or status line, in bytes without its CRLF
 * @param maxHeaderBytes     every header field line of one message (or of its trailers) together, CRLFs included
 * @param maxHeaderCount     header fields of one message (and, separately, of its trailers)
 * @param maxBodySize        the body's bytes (after chunked decoding); for a response, -1 for no limit
 * @param maxChunkLineLength a chunk-size line with its extensions, in bytes without its CRLF
 */
public record HttpLimits(int maxStartLineLength, int maxHeaderBytes, int maxHeaderCount, long maxBodySize,
                         int maxChunkLineLength) {
    private static final HttpLimits DEFAULTS = new HttpLimits(8 * 1024, 32 * 1024, 100, 16L * 1024 * 1024, 1024);

    public HttpLimits {
        if (maxStartLineLength < 16 || maxHeaderBytes < 2 || maxHeaderCount < 1 || maxBodySize < -1
                || maxChunkLineLength < 16) {
            throw new IllegalArgumentException("limits too small: " + maxStartLineLength + ", " + maxHeaderBytes
                    + ", " + maxHeaderCount + ", " + maxBodySize + ", " + maxChunkLineLength);
        }
    }

    /** 8 KiB start line, 32 KiB and 100 header fields, 16 MiB body, 1 KiB chunk-size line. */
    public static HttpLimits defaults() {
        return DEFAULTS;
    }

    public HttpLimits withMaxStartLineLength(int n) {
        return RecordCopy.with(this, HttpLimits::maxStartLineLength, n);
    }

    public HttpLimits withMaxHeaderBytes(int n) {
        return RecordCopy.with(this, HttpLimits::maxHeaderBytes, n);
    }

    public HttpLimits withMaxHeaderCount(int n) {
        return RecordCopy.with(this, HttpLimits::maxHeaderCount, n);
    }

    public HttpLimits withMaxBodySize(long n) {
        return RecordCopy.with(this, HttpLimits::maxBodySize, n);
    }

    public HttpLimits withMaxChunkLineLength(int n) {
        return RecordCopy.with(this, HttpLimits::maxChunkLineLength, n);
    }
}
