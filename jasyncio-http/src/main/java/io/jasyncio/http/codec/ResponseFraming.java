package io.jasyncio.http.codec;

import io.jasyncio.http.HttpHead;

/**
 * How a response is framed on the wire, decided when it begins.
 *
 * @param kind how the body is delimited
 * @param headFraming what the head says: a Content-Length, {@link HttpHead#CHUNKED} or {@link HttpHead#UNFRAMED}
 * @param bodyAllowed whether body bytes go on the wire at all (not for HEAD, 1xx, 204, 304)
 * @param connectionField the {@code Connection} field the server adds to the head
 */
public record ResponseFraming(Kind kind, long headFraming, boolean bodyAllowed, ConnectionField connectionField) {
    /** How a response body is delimited (RFC 9112 §6.3). */
    public enum Kind {
        /** No body: the status forbids one (1xx, 204, 304). */
        NONE,
        /** {@code Content-Length} bytes. */
        LENGTH,
        /** Chunked transfer coding (HTTP/1.1). */
        CHUNKED,
        /** Ended by closing the connection (HTTP/1.0, length unknown). */
        CLOSE_DELIMITED
    }

    /** The {@code Connection} field the server adds to a response head. */
    public enum ConnectionField {
        /** None: the default of the request's version holds (or the handler's own field says it). */
        NONE,
        /** {@code Connection: close}: the connection closes after this response. */
        CLOSE,
        /** {@code Connection: keep-alive}: an HTTP/1.0 client may send another request. */
        KEEP_ALIVE
    }
}
