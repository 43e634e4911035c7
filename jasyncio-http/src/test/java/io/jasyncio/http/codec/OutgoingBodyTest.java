package io.jasyncio.http.codec;

import io.jasyncio.http.HttpHead;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.codec.OutgoingBody.Ending;
import io.jasyncio.http.codec.ResponseFraming.ConnectionField;
import io.jasyncio.http.codec.ResponseFraming.Kind;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A body's framing on the way out, for requests and responses alike, without a socket. */
class OutgoingBodyTest {
    /** A sink that keeps what it is given, and counts the puts. */
    private static final class Recorder implements OutgoingBody.Sink {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int puts;

        @Override
        public void put(byte[] b) {
            puts++;
            bytes.writeBytes(b);
        }

        @Override
        public void put(ByteBuffer b) {
            puts++;
            byte[] copy = new byte[b.remaining()];
            b.get(copy);
            bytes.writeBytes(copy);
        }

        String text() {
            return bytes.toString(StandardCharsets.US_ASCII);
        }
    }

    private static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }

    // ---- Content-Length ------------------------------------------------------------------------

    @Test
    void aLengthBodyPassesItsBytesThroughAndCountsThem() {
        OutgoingBody body = OutgoingBody.ofLength(5);
        Recorder sink = new Recorder();
        ByteBuffer piece = ascii("hel");
        assertTrue(body.write(piece, sink));
        assertFalse(piece.hasRemaining(), "the piece is consumed");
        assertTrue(body.write("lo".getBytes(StandardCharsets.US_ASCII), sink));
        assertEquals(5, body.written());
        assertEquals(0, body.remaining());
        assertEquals(Ending.COMPLETE, body.end(HttpHeaders.of("X-Trailer", "dropped"), sink));
        assertEquals("hello", sink.text(), "no framing bytes, and trailers are dropped");
        assertTrue(body.ended());
        assertFalse(body.isChunked());
    }

    @Test
    void aWritePastTheLengthIsRefusedAndChangesNothing() {
        OutgoingBody body = OutgoingBody.ofLength(4);
        Recorder sink = new Recorder();
        body.write(ascii("abc"), sink);
        ByteBuffer tooMuch = ascii("de");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> body.write(tooMuch, sink));
        assertEquals("writing 2 bytes where the Content-Length of 4 leaves 1", e.getMessage());
        assertEquals(2, tooMuch.remaining(), "the refused piece is not consumed");
        assertEquals(3, body.written());
        assertEquals("abc", sink.text());
        assertThrows(IllegalStateException.class, () -> body.write(new byte[2], sink));
        body.write(ascii("d"), sink);
        assertEquals(Ending.COMPLETE, body.end(HttpHeaders.empty(), sink));
    }

    @Test
    void endingShortOfTheLengthIsReported() {
        OutgoingBody body = OutgoingBody.ofLength(10);
        Recorder sink = new Recorder();
        body.write(ascii("12345"), sink);
        assertEquals(5, body.remaining());
        assertEquals(Ending.SHORT, body.end(HttpHeaders.empty(), sink));
        assertEquals("12345", sink.text(), "nothing is added at the end");
    }

    @Test
    void aZeroLengthBodyIsCompleteAtOnce() {
        OutgoingBody body = OutgoingBody.ofLength(0);
        Recorder sink = new Recorder();
        assertFalse(body.write(ByteBuffer.allocate(0), sink));
        assertEquals(Ending.COMPLETE, body.end(HttpHeaders.empty(), sink));
        assertEquals(0, sink.puts);
        assertThrows(IllegalArgumentException.class, () -> OutgoingBody.ofLength(-1));
    }

    // ---- chunked -------------------------------------------------------------------------------

    @Test
    void eachChunkedPieceIsFramedAndTheEndIsTheLastChunk() {
        OutgoingBody body = OutgoingBody.chunked();
        Recorder sink = new Recorder();
        assertTrue(body.isChunked());
        assertTrue(body.write(ascii("hello"), sink));
        assertTrue(body.write(new byte[26], sink));
        assertEquals(31, body.written(), "the body's bytes, not the coding's");
        assertEquals(-1, body.remaining());
        assertEquals(Ending.COMPLETE, body.end(HttpHeaders.empty(), sink));
        assertEquals("5\r\nhello\r\n1a\r\n" + "\0".repeat(26) + "\r\n0\r\n\r\n", sink.text());
        assertEquals(7, sink.puts, "head, piece, CRLF twice, then the last chunk in one put");
    }

    @Test
    void anEmptyPieceWritesNothingForItWouldEndTheBody() {
        OutgoingBody body = OutgoingBody.chunked();
        Recorder sink = new Recorder();
        assertFalse(body.write(ByteBuffer.allocate(0), sink));
        assertFalse(body.write(new byte[0], sink));
        assertEquals(0, sink.puts);
        body.write(ascii("x"), sink);
        assertEquals("1\r\nx\r\n", sink.text());
    }

    @Test
    void aChunkedEndCarriesTheTrailers() {
        OutgoingBody body = OutgoingBody.chunked();
        Recorder sink = new Recorder();
        body.write(ascii("ab"), sink);
        body.end(HttpHeaders.of("Checksum", "42"), sink);
        assertEquals("2\r\nab\r\n0\r\nChecksum: 42\r\n\r\n", sink.text());
    }

    @Test
    void aBufferIsFramedFromItsPositionToItsLimit() {
        OutgoingBody body = OutgoingBody.chunked();
        Recorder sink = new Recorder();
        ByteBuffer middle = ascii("--abc--").position(2).limit(5);
        body.write(middle, sink);
        assertEquals("3\r\nabc\r\n", sink.text());
        assertEquals(5, middle.position());
    }

    // ---- until close, and no body --------------------------------------------------------------

    @Test
    void aBodyEndedByCloseIsTheBareBytesWithoutAnEnd() {
        OutgoingBody body = OutgoingBody.untilClose();
        Recorder sink = new Recorder();
        body.write(ascii("old "), sink);
        body.write(ascii("style"), sink);
        assertEquals(Ending.COMPLETE, body.end(HttpHeaders.of("X", "dropped"), sink));
        assertEquals("old style", sink.text());
        assertEquals(-1, body.remaining());
    }

    @Test
    void noBodyDropsEveryPieceAndEndsWithNothing() {
        OutgoingBody body = OutgoingBody.none();
        Recorder sink = new Recorder();
        ByteBuffer piece = ascii("not sent");
        assertFalse(body.write(piece, sink));
        assertFalse(piece.hasRemaining(), "a dropped piece is consumed all the same");
        assertFalse(body.write(new byte[100], sink));
        assertEquals(Ending.COMPLETE, body.end(HttpHeaders.of("X", "dropped"), sink));
        assertEquals(0, sink.puts);
        assertEquals(0, body.written());
    }

    // ---- the end -------------------------------------------------------------------------------

    @Test
    void nothingMayBeWrittenOrEndedAfterTheEnd() {
        for (OutgoingBody body : new OutgoingBody[]{OutgoingBody.ofLength(0), OutgoingBody.chunked(),
                OutgoingBody.untilClose(), OutgoingBody.none()}) {
            Recorder sink = new Recorder();
            body.end(HttpHeaders.empty(), sink);
            int puts = sink.puts;
            assertThrows(IllegalStateException.class, () -> body.write(ascii("x"), sink));
            assertThrows(IllegalStateException.class, () -> body.write(new byte[0], sink));
            assertThrows(IllegalStateException.class, () -> body.end(HttpHeaders.empty(), sink));
            assertEquals(puts, sink.puts, "a refused call writes nothing");
        }
    }

    // ---- from a response's framing -------------------------------------------------------------

    @Test
    void aResponseFramingPicksTheBody() {
        Recorder sink = new Recorder();
        OutgoingBody length = OutgoingBody.of(new ResponseFraming(Kind.LENGTH, 3, true, ConnectionField.NONE));
        assertEquals(3, length.remaining());
        OutgoingBody chunked = OutgoingBody.of(new ResponseFraming(Kind.CHUNKED, HttpHead.CHUNKED, true, ConnectionField.NONE));
        assertTrue(chunked.isChunked());
        OutgoingBody untilClose = OutgoingBody.of(new ResponseFraming(Kind.CLOSE_DELIMITED, HttpHead.UNFRAMED, true,
                ConnectionField.CLOSE));
        untilClose.write(ascii("abc"), sink);
        assertEquals("abc", sink.text());
        // a HEAD response says its length or chunked in its head, and sends no body
        OutgoingBody head = OutgoingBody.of(new ResponseFraming(Kind.LENGTH, 3, false, ConnectionField.NONE));
        assertFalse(head.write(ascii("abc"), sink));
        assertEquals(Ending.COMPLETE, head.end(HttpHeaders.empty(), sink));
        OutgoingBody headChunked = OutgoingBody.of(new ResponseFraming(Kind.CHUNKED, HttpHead.CHUNKED, false,
                ConnectionField.NONE));
        assertFalse(headChunked.isChunked(), "no last chunk for a HEAD response");
        OutgoingBody noContent = OutgoingBody.of(new ResponseFraming(Kind.NONE, HttpHead.UNFRAMED, false, ConnectionField.NONE));
        assertFalse(noContent.write(ascii("x"), sink));
        assertEquals("abc", sink.text());
    }
}
