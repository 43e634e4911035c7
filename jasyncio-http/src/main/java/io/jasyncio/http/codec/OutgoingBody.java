package io.jasyncio.http.codec;

import io.jasyncio.http.HttpHeaders;

import java.nio.ByteBuffer;

/**
 * The framing of one message body being sent, a request's or a response's (RFC 9112 §6): by
 * {@code Content-Length} (the bytes are counted), chunked (each piece framed as a chunk, the end
 * as the last chunk and its trailers), by closing the connection (an HTTP/1.0 response of unknown
 * length), or none at all (a HEAD response, 1xx, 204, 304: the pieces are dropped). It does no
 * I/O: each call puts the bytes to send, in order, into a {@link Sink}; it allocates nothing but
 * each chunk's size line. After h11's body writers ({@code send_data}, {@code send_eom}).
 *
 * <p>Use: {@link #write} each piece, then {@link #end} once. A write past the
 * {@code Content-Length} is refused, changing nothing; an end short of it returns
 * {@link Ending#SHORT}: the caller aborts the connection so that the peer sees the message fail.
 */
public final class OutgoingBody {
    /** Where the framed bytes go, in order: a transport, a staging buffer, a test's list. */
    public interface Sink {
        /** Takes all of {@code bytes} (the array is not changed later: it may be kept). */
        void put(byte[] bytes);

        /** Takes the bytes between {@code bytes}' position and limit, advancing its position to its limit. */
        void put(ByteBuffer bytes);
    }

    /** What {@link #end} found. */
    public enum Ending {
        /** The body is complete (its last chunk, if chunked, is in the sink). */
        COMPLETE,
        /** Fewer bytes than the {@code Content-Length} said: abort the connection. */
        SHORT
    }

    private enum Framing { NONE, LENGTH, CHUNKED, UNTIL_CLOSE }

    private final Framing framing;
    /** The Content-Length, or -1 when not framed by length. */
    private final long length;
    private long written;
    private boolean ended;

    private OutgoingBody(Framing framing, long length) {
        this.framing = framing;
        this.length = length;
    }

    /** A body of exactly {@code length} bytes ({@code Content-Length}). */
    public static OutgoingBody ofLength(long length) {
        if (length < 0) {
            throw new IllegalArgumentException("a Content-Length of " + length);
        }
        return new OutgoingBody(Framing.LENGTH, length);
    }

    /** A body of unknown length in the chunked transfer coding (HTTP/1.1). */
    public static OutgoingBody chunked() {
        return new OutgoingBody(Framing.CHUNKED, -1);
    }

    /** A body of unknown length that ends when the connection closes (an HTTP/1.0 response). */
    public static OutgoingBody untilClose() {
        return new OutgoingBody(Framing.UNTIL_CLOSE, -1);
    }

    /** No body on the wire, whatever the head says (a HEAD response, 1xx, 204, 304): pieces are dropped. */
    public static OutgoingBody none() {
        return new OutgoingBody(Framing.NONE, -1);
    }

    /** The body of a response framed as {@code framing} says (none when its body is not allowed). */
    public static OutgoingBody of(ResponseFraming framing) {
        if (!framing.bodyAllowed()) {
            return none();
        }
        return switch (framing.kind()) {
            case NONE -> none();
            case LENGTH -> ofLength(framing.headFraming());
            case CHUNKED -> chunked();
            case CLOSE_DELIMITED -> untilClose();
        };
    }

    /** Whether the body is sent in the chunked coding. */
    public boolean isChunked() {
        return framing == Framing.CHUNKED;
    }

    /** Body bytes written so far (not counting the chunked coding's own bytes; 0 when there is no body). */
    public long written() {
        return written;
    }

    /** Bytes the {@code Content-Length} still expects; -1 when the body is not framed by length. */
    public long remaining() {
        return framing == Framing.LENGTH ? length - written : -1;
    }

    /** Whether {@link #end} was called. */
    public boolean ended() {
        return ended;
    }

    /**
     * Frames the bytes between {@code piece}'s position and limit into {@code sink}, consuming
     * them (its position moves to its limit). Returns whether bytes went to the sink: not for an
     * empty piece (an empty chunk would end a chunked body), nor for a body that is not sent.
     *
     * @throws IllegalStateException the piece goes past the {@code Content-Length} (then nothing
     *                               is written and the piece is not consumed), or the body ended
     */
    public boolean write(ByteBuffer piece, Sink sink) {
        if (!accept(piece.remaining())) {
            piece.position(piece.limit());
            return false;
        }
        boolean chunked = framing == Framing.CHUNKED;
        if (chunked) {
            sink.put(ChunkedCoding.chunkHead(piece.remaining()));
        }
        sink.put(piece);
        if (chunked) {
            sink.put(ChunkedCoding.CHUNK_END);
        }
        return true;
    }

    /** As {@link #write(ByteBuffer, Sink)}, for a whole array (which the sink may keep). */
    public boolean write(byte[] piece, Sink sink) {
        if (!accept(piece.length)) {
            return false;
        }
        boolean chunked = framing == Framing.CHUNKED;
        if (chunked) {
            sink.put(ChunkedCoding.chunkHead(piece.length));
        }
        sink.put(piece);
        if (chunked) {
            sink.put(ChunkedCoding.CHUNK_END);
        }
        return true;
    }

    /** Refuses {@code n} more bytes if they cannot be written, else counts them; returns whether they are sent. */
    private boolean accept(int n) {
        if (ended) {
            throw new IllegalStateException("the body has ended: no more bytes may be written");
        }
        if (framing == Framing.LENGTH && n > length - written) {
            throw new IllegalStateException("writing " + n + " bytes where the Content-Length of " + length
                    + " leaves " + (length - written));
        }
        if (n == 0 || framing == Framing.NONE) {
            return false;
        }
        written += n;
        return true;
    }

    /**
     * Ends the body: a chunked one puts its last chunk and {@code trailers} into {@code sink}
     * (other framings drop the trailers). Returns {@link Ending#SHORT} when the body is shorter
     * than its {@code Content-Length}.
     *
     * @throws IllegalStateException the body had ended already
     */
    public Ending end(HttpHeaders trailers, Sink sink) {
        if (ended) {
            throw new IllegalStateException("the body has ended already");
        }
        ended = true;
        if (framing == Framing.CHUNKED) {
            sink.put(ChunkedCoding.lastChunk(trailers));
        }
        return framing == Framing.LENGTH && written < length ? Ending.SHORT : Ending.COMPLETE;
    }
}
