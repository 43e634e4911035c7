package io.jasyncio.http;

import java.nio.ByteBuffer;

/**
 * What an {@link HttpParser} reports, in wire order: a head, the body in pieces, the end of the
 * message. Each callback returns whether the parser goes on; false pauses it right after the
 * event, with the fed buffer's position there (feed the rest again to resume).
 */
public interface HttpMessageListener {
    /** A request head (its body is empty: the body follows as {@link #onBody} calls). */
    default boolean onRequestHead(HttpRequest head) throws HttpParseException {
        throw new UnsupportedOperationException("this listener takes responses");
    }

    /** A response head (its body is empty). A 1xx is followed by its end at once, then the real response. */
    default boolean onResponseHead(HttpResponse head) throws HttpParseException {
        throw new UnsupportedOperationException("this listener takes requests");
    }

    /**
     * Body bytes (chunked framing removed), between {@code chunk}'s position and limit: a view of
     * the fed buffer, valid only during the call.
     */
    default boolean onBody(ByteBuffer chunk) throws HttpParseException {
        return true;
    }

    /** The message ended; {@code trailers} are the chunked body's trailer fields (empty if none). */
    boolean onMessageComplete(HttpHeaders trailers) throws HttpParseException;
}
