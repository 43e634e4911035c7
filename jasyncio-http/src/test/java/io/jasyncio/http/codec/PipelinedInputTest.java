package io.jasyncio.http.codec;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bytes that wait unparsed, held and parsed again in order, without a loop. */
class PipelinedInputTest {
    private static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }

    private static String text(ByteBuffer b) {
        return StandardCharsets.US_ASCII.decode(b.duplicate()).toString();
    }

    @Test
    void heldBytesComeBackInOrderAcrossReads() {
        PipelinedInput in = new PipelinedInput();
        assertTrue(in.isEmpty());
        ByteBuffer read = ascii("GET /a HTTP/1.1\r\n");
        in.hold(read);
        assertFalse(read.hasRemaining(), "the read is consumed");
        in.hold(ascii("\r\nGET /b"));
        assertEquals(25, in.size());
        assertEquals("GET /a HTTP/1.1\r\n\r\nGET /b", text(in.parseView()));
    }

    @Test
    void whatTheParserTookIsGoneAndTheRestStays() {
        PipelinedInput in = new PipelinedInput();
        in.hold(ascii("first|second"));
        ByteBuffer view = in.parseView();
        view.position(view.position() + 6); // the parser stopped after "first|"
        in.consumed(view);
        assertEquals(6, in.size());
        assertEquals("second", text(in.parseView()));
        ByteBuffer all = in.parseView();
        all.position(all.limit());
        in.consumed(all);
        assertTrue(in.isEmpty());
    }

    @Test
    void theArrayIsReusedFromItsStartOnceTheHeldBytesMoveDown() {
        PipelinedInput in = new PipelinedInput();
        in.hold(ascii("0123456789"));
        ByteBuffer view = in.parseView();
        view.position(8);
        in.consumed(view);
        in.hold(ascii("abcdefgh")); // 2 held + 8 new fit the 10 bytes when moved down
        assertEquals("89abcdefgh", text(in.parseView()));
    }

    @Test
    void aClearWhileParsingLeavesNothingHeld() {
        PipelinedInput in = new PipelinedInput();
        in.hold(ascii("GET / HTTP/1.1\r\n\r\nGET /next HTTP/1.1\r\n\r\n"));
        ByteBuffer view = in.parseView();
        view.position(18);
        in.clear(); // the connection closed while the parser ran: the rest is not answered
        in.consumed(view);
        assertTrue(in.isEmpty());
        assertEquals(0, in.size());
    }

    @Test
    void takeAllCopiesTheRestAndEmpties() {
        PipelinedInput in = new PipelinedInput();
        in.hold(ascii("HTTP/1.1 101\r\n\r\nframe"));
        ByteBuffer view = in.parseView();
        view.position(16);
        in.consumed(view);
        ByteBuffer rest = in.takeAll();
        assertEquals("frame", text(rest));
        assertTrue(in.isEmpty());
        in.hold(ascii("more"));
        assertEquals("more", text(in.parseView()), "usable again after");
    }
}
