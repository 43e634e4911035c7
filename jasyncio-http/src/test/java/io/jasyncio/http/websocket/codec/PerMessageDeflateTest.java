package io.jasyncio.http.websocket.codec;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.Deflater;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** permessage-deflate without a socket: compression both ways, fragments, the bomb, and negotiation. */
class PerMessageDeflateTest {
    private final Recorder recorder = new Recorder();
    private final FrameEncoder client = new FrameEncoder(true);

    private FrameDecoder server(boolean takeover, long limit) {
        return new FrameDecoder(true, limit, limit, new MessageInflater(takeover), recorder);
    }

    @Test
    void messagesRoundTripWithAndWithoutContextTakeover() throws ProtocolError {
        for (boolean takeover : new boolean[]{true, false}) {
            MessageDeflater deflater = new MessageDeflater(takeover, Deflater.DEFAULT_COMPRESSION);
            FrameDecoder decoder = server(takeover, 1 << 20);
            String text = "Hello, Hello, Hello, κόσμε ".repeat(20);
            for (int i = 0; i < 3; i++) {
                byte[] plain = text.getBytes(StandardCharsets.UTF_8);
                byte[] packed = deflater.compress(plain, 0, plain.length);
                assertTrue(packed.length < plain.length / 4, "compressed to " + packed.length);
                decoder.feed(ByteBuffer.wrap(client.frame(Opcodes.TEXT, true, true, packed, 0, packed.length)));
            }
            byte[] empty = deflater.compress(new byte[0], 0, 0);
            decoder.feed(ByteBuffer.wrap(client.frame(Opcodes.BINARY, true, true, empty, 0, empty.length)));
            assertEquals(List.of("text:" + text, "text:" + text, "text:" + text, "binary:0"), recorder.events);
            recorder.events.clear();
        }
    }

    @Test
    void aCompressedMessageMaySpanFragments() throws ProtocolError {
        byte[] plain = new byte[200_000];
        for (int i = 0; i < plain.length; i++) {
            plain[i] = (byte) (i % 251);
        }
        byte[] packed = new MessageDeflater(true, 6).compress(plain, 0, plain.length);
        int half = packed.length / 2;
        FrameDecoder decoder = server(true, 1 << 20);
        decoder.feed(ByteBuffer.wrap(client.frame(Opcodes.BINARY, false, true, packed, 0, half)));
        decoder.feed(ByteBuffer.wrap(client.frame(Opcodes.CONTINUATION, true, false, packed, half, packed.length - half)));
        assertArrayEquals(plain, recorder.binaries.getFirst());
    }

    @Test
    void aZipBombHitsTheMessageLimitNotTheHeap() {
        // 64 MiB of zeros deflate to about 64 KiB; the limit is 1 MiB of output
        Deflater d = new Deflater(9, true);
        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        byte[] zeros = new byte[1 << 20];
        byte[] out = new byte[64 * 1024];
        for (int i = 0; i < 64; i++) {
            d.setInput(zeros);
            while (!d.needsInput()) {
                packed.write(out, 0, d.deflate(out, 0, out.length, Deflater.NO_FLUSH));
            }
        }
        int n;
        while ((n = d.deflate(out, 0, out.length, Deflater.SYNC_FLUSH)) > 0) {
            packed.write(out, 0, n);
        }
        d.end();
        byte[] bomb = packed.toByteArray();
        assertTrue(bomb.length < 128 * 1024, "the bomb is " + bomb.length + " bytes");
        FrameDecoder decoder = new FrameDecoder(true, 4 << 20, 1 << 20, new MessageInflater(true), recorder);
        ProtocolError e = assertThrows(ProtocolError.class,
                () -> decoder.feed(ByteBuffer.wrap(client.frame(Opcodes.BINARY, true, true, bomb, 0, bomb.length))));
        assertEquals(1009, e.closeCode());
    }

    @Test
    void invalidCompressedDataIs1007AndRsv1WithoutTheExtensionIs1002() {
        byte[] junk = {(byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3};
        ProtocolError e = assertThrows(ProtocolError.class, () -> server(true, 1000)
                .feed(ByteBuffer.wrap(client.frame(Opcodes.BINARY, true, true, junk, 0, junk.length))));
        assertEquals(1007, e.closeCode());
        FrameDecoder plain = new FrameDecoder(true, 1000, 1000, null, recorder);
        e = assertThrows(ProtocolError.class,
                () -> plain.feed(ByteBuffer.wrap(client.frame(Opcodes.BINARY, true, true, junk, 0, junk.length))));
        assertEquals(1002, e.closeCode());
    }

    @Test
    void compressedTextIsValidatedAfterInflating() {
        byte[] bad = {'o', 'k', (byte) 0xc0, (byte) 0xaf};
        byte[] packed = new MessageDeflater(true, 6).compress(bad, 0, bad.length);
        ProtocolError e = assertThrows(ProtocolError.class, () -> server(true, 1000)
                .feed(ByteBuffer.wrap(client.frame(Opcodes.TEXT, true, true, packed, 0, packed.length))));
        assertEquals(1007, e.closeCode());
    }

    private static List<ExtensionOffer> offers(String... values) {
        return ExtensionOffer.parse(List.of(values));
    }

    @Test
    void theServerAcceptsTheFirstOfferItCanHonour() {
        DeflateAgreement a = DeflateAgreement.serverAccept(
                offers("x-unknown, permessage-deflate; server_max_window_bits=99", "permessage-deflate; client_max_window_bits"),
                false, false);
        assertEquals("permessage-deflate", a.header());
        assertTrue(a.compressOutgoing() && a.outgoingTakeover() && a.incomingTakeover());

        a = DeflateAgreement.serverAccept(offers("permessage-deflate; server_no_context_takeover; client_no_context_takeover"), false, false);
        assertEquals("permessage-deflate; server_no_context_takeover; client_no_context_takeover", a.header());
        assertTrue(!a.outgoingTakeover() && !a.incomingTakeover());

        a = DeflateAgreement.serverAccept(offers("permessage-deflate; server_max_window_bits=10"), true, false);
        assertEquals("permessage-deflate; server_no_context_takeover; server_max_window_bits=10", a.header());
        assertTrue(!a.compressOutgoing(), "a 10-bit window cannot be kept by java.util.zip: messages go out uncompressed");

        assertNull(DeflateAgreement.serverAccept(offers("permessage-deflate; server_max_window_bits"), false, false));
        assertNull(DeflateAgreement.serverAccept(offers("permessage-deflate; unknown=1"), false, false));
        assertNull(DeflateAgreement.serverAccept(offers("permessage-deflate; client_no_context_takeover; client_no_context_takeover"), false, false));
        assertNull(DeflateAgreement.serverAccept(offers("permessage-deflate; client_max_window_bits=7"), false, false));
    }

    @Test
    void theClientChecksTheServersResponse() {
        DeflateAgreement a = DeflateAgreement.clientAccept(offers("permessage-deflate; client_max_window_bits=9").getFirst(), false, false);
        assertTrue(!a.compressOutgoing() && a.incomingTakeover());
        a = DeflateAgreement.clientAccept(offers("permessage-deflate; server_no_context_takeover").getFirst(), true, false);
        assertTrue(a.compressOutgoing() && !a.incomingTakeover() && a.outgoingTakeover());
        assertThrows(IllegalArgumentException.class,
                () -> DeflateAgreement.clientAccept(offers("permessage-deflate").getFirst(), true, false));
        assertThrows(IllegalArgumentException.class,
                () -> DeflateAgreement.clientAccept(offers("permessage-deflate; client_max_window_bits").getFirst(), false, false));
    }
}
