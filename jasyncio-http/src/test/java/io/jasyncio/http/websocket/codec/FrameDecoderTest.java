package io.jasyncio.http.websocket.codec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The decoder without a socket: what a server accepts from a client (masked frames), and the
 * close code for each thing RFC 6455 forbids. Bytes are built by hand (or by the encoder) and fed
 * whole, and again one byte at a time.
 */
class FrameDecoderTest {
    private static final long LIMIT = 1 << 20;
    private final Recorder recorder = new Recorder();
    private final FrameEncoder client = new FrameEncoder(true);

    private FrameDecoder server() {
        return new FrameDecoder(true, LIMIT, LIMIT, null, recorder);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A frame with first byte {@code b0} and a masked (or not) payload, built by hand. */
    private static byte[] raw(int b0, byte[] payload, boolean masked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(b0);
        int maskBit = masked ? 0x80 : 0;
        if (payload.length < 126) {
            out.write(maskBit | payload.length);
        } else {
            out.write(maskBit | 126);
            out.write(payload.length >>> 8);
            out.write(payload.length);
        }
        byte[] key = {1, 2, 3, 4};
        if (masked) {
            out.writeBytes(key);
        }
        for (int i = 0; i < payload.length; i++) {
            out.write(masked ? payload[i] ^ key[i & 3] : payload[i]);
        }
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private void feedWhole(FrameDecoder d, byte[] bytes) throws ProtocolError {
        d.feed(ByteBuffer.wrap(bytes.clone()));
    }

    private void feedByteByByte(FrameDecoder d, byte[] bytes) throws ProtocolError {
        for (byte b : bytes) {
            d.feed(ByteBuffer.wrap(new byte[]{b}));
        }
    }

    private int refusal(byte[] bytes) {
        ProtocolError whole = assertThrows(ProtocolError.class, () -> feedWhole(server(), bytes));
        ProtocolError split = assertThrows(ProtocolError.class, () -> feedByteByByte(server(), bytes));
        assertEquals(whole.closeCode(), split.closeCode());
        return whole.closeCode();
    }

    @Test
    void decodesMessagesWholeAndByteByByte() throws ProtocolError {
        byte[] big = new byte[70_000];
        big[69_999] = 9;
        byte[] wire = concat(
                client.frame(Opcodes.TEXT, true, false, utf8("Hello, κόσμε"), 0, utf8("Hello, κόσμε").length),
                client.frame(Opcodes.BINARY, true, false, big, 0, big.length),
                client.frame(Opcodes.TEXT, true, false, new byte[0], 0, 0));
        feedWhole(server(), wire);
        feedByteByByte(server(), wire);
        List<String> once = List.of("text:Hello, κόσμε", "binary:70000", "text:");
        assertEquals(concatLists(once, once), recorder.events);
        assertArrayEquals(big, recorder.binaries.get(1));
    }

    private static List<String> concatLists(List<String> a, List<String> b) {
        var all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    @Test
    void joinsFragmentsWithControlFramesBetweenThem() throws ProtocolError {
        byte[] wire = concat(
                raw(Opcodes.TEXT, utf8("frag"), true),
                raw(0x80 | Opcodes.PING, utf8("are you there"), true),
                raw(Opcodes.CONTINUATION, new byte[]{(byte) 0xce}, true), // a character split across frames
                raw(0x80 | Opcodes.CONTINUATION, new byte[]{(byte) 0xba, 'x'}, true),
                raw(0x80 | Opcodes.PONG, new byte[0], true),
                raw(0x80 | Opcodes.CLOSE, FrameEncoder.closePayload(1000, "bye"), true),
                raw(0x80 | Opcodes.TEXT, utf8("after the close"), true));
        feedByteByByte(server(), wire);
        assertEquals(List.of("ping:are you there", "text:fragκx", "pong:", "close:1000:bye"), recorder.events);
    }

    @Test
    void aCloseWithoutPayloadIs1005() throws ProtocolError {
        feedWhole(server(), raw(0x80 | Opcodes.CLOSE, new byte[0], true));
        assertEquals(List.of("close:1005:"), recorder.events);
    }

    @Test
    void unmaskedClientFramesAndMaskedServerFramesAre1002() {
        assertEquals(1002, refusal(raw(0x80 | Opcodes.TEXT, utf8("hi"), false)));
        FrameDecoder asClient = new FrameDecoder(false, LIMIT, LIMIT, null, recorder);
        ProtocolError e = assertThrows(ProtocolError.class, () -> feedWhole(asClient, raw(0x80 | Opcodes.TEXT, utf8("hi"), true)));
        assertEquals(1002, e.closeCode());
    }

    @ParameterizedTest
    @ValueSource(ints = {0x40, 0x20, 0x10, 0x70})
    void reservedBitsAre1002(int bits) {
        assertEquals(1002, refusal(raw(0x80 | bits | Opcodes.TEXT, utf8("hi"), true)));
        assertEquals(1002, refusal(raw(0x80 | bits | Opcodes.PING, utf8("hi"), true)));
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 5, 6, 7, 11, 12, 13, 14, 15})
    void reservedOpcodesAre1002(int opcode) {
        assertEquals(1002, refusal(raw(0x80 | opcode, new byte[0], true)));
        assertEquals(1002, refusal(raw(0x80 | opcode, utf8("payload"), true)));
    }

    @Test
    void controlFramesMustBeShortAndWhole() {
        assertEquals(1002, refusal(raw(Opcodes.PING, utf8("fragmented"), true)));
        assertEquals(1002, refusal(raw(0x80 | Opcodes.PING, new byte[126], true)));
        assertEquals(1002, refusal(raw(0x80 | Opcodes.CLOSE, new byte[]{3}, true)), "a one-byte close payload");
        assertTrue(recorder.events.isEmpty());
    }

    @Test
    void continuationsOutOfPlaceAre1002() {
        assertEquals(1002, refusal(raw(0x80 | Opcodes.CONTINUATION, utf8("x"), true)));
        assertEquals(1002, refusal(concat(raw(Opcodes.TEXT, utf8("x"), true), raw(0x80 | Opcodes.TEXT, utf8("y"), true))));
        assertEquals(1002, refusal(concat(raw(Opcodes.BINARY, utf8("x"), true), raw(0x80 | Opcodes.BINARY, utf8("y"), true))));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535})
    void invalidCloseCodesAre1002(int code) {
        assertEquals(1002, refusal(raw(0x80 | Opcodes.CLOSE, FrameEncoder.closePayload(code, ""), true)));
    }

    @ParameterizedTest
    @ValueSource(ints = {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999})
    void validCloseCodesAreReported(int code) throws ProtocolError {
        feedWhole(server(), raw(0x80 | Opcodes.CLOSE, FrameEncoder.closePayload(code, "why"), true));
        assertEquals(List.of("close:" + code + ":why"), recorder.events);
    }

    @Test
    void invalidUtf8Is1007AndFailsBeforeTheMessageEnds() {
        assertEquals(1007, refusal(raw(0x80 | Opcodes.TEXT, new byte[]{'a', (byte) 0xc0, (byte) 0xaf}, true)));
        assertEquals(1007, refusal(raw(0x80 | Opcodes.TEXT, new byte[]{'a', (byte) 0xce}, true)), "ends inside a character");
        assertEquals(1007, refusal(concat(raw(0x80 | Opcodes.CLOSE, new byte[]{3, (byte) 0xe8, (byte) 0xff}, true))), "a close reason");
        // the first fragment is bad: refused at once, with no final fragment yet
        assertEquals(1007, refusal(raw(Opcodes.TEXT, new byte[]{(byte) 0xed, (byte) 0xa0, (byte) 0x80}, true)));
        assertTrue(recorder.events.isEmpty());
    }

    @Test
    void oversizedFramesAre1009BeforeTheirPayloadComes() {
        byte[] head = {(byte) (0x80 | Opcodes.BINARY), (byte) (0x80 | 127), 0x3f, -1, -1, -1, -1, -1, -1, -1, 1, 2, 3, 4};
        assertEquals(1009, refusal(head), "2^62 bytes announced: refused on the header alone");
        FrameDecoder small = new FrameDecoder(true, 100, 150, null, recorder);
        assertThrows(ProtocolError.class, () -> feedWhole(small, raw(0x80 | Opcodes.BINARY, new byte[101], true)));
        FrameDecoder fragments = new FrameDecoder(true, 100, 150, null, recorder);
        ProtocolError e = assertThrows(ProtocolError.class, () -> feedWhole(fragments,
                concat(raw(Opcodes.BINARY, new byte[100], true), raw(0x80 | Opcodes.CONTINUATION, new byte[51], true))));
        assertEquals(1009, e.closeCode(), "the message passes its limit across fragments");
    }

    @Test
    void aSixtyFourBitLengthWithItsTopBitIs1002() {
        byte[] head = {(byte) (0x80 | Opcodes.BINARY), (byte) (0x80 | 127), (byte) 0x80, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4};
        assertEquals(1002, refusal(head));
    }

    @Test
    void memoryFollowsTheBytesReceivedNotTheAnnouncedLength() throws ProtocolError {
        MessageBuffer buffer = new MessageBuffer(Long.MAX_VALUE);
        buffer.append(new byte[10], 0, 10);
        assertTrue(buffer.array().length <= 256, "10 bytes held in " + buffer.array().length);
        // a gigabyte announced, ten bytes sent: the decoder waits for the rest holding ten
        FrameDecoder huge = new FrameDecoder(true, Long.MAX_VALUE, Long.MAX_VALUE, null, recorder);
        byte[] head = {(byte) Opcodes.BINARY, (byte) (0x80 | 127), 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0};
        feedWhole(huge, concat(head, new byte[10]));
        assertTrue(recorder.events.isEmpty());
    }

    @Test
    void anEncodedClientFrameIsMaskedAndDecodesBack() throws ProtocolError {
        for (int n : new int[]{0, 125, 126, 65535, 65536}) {
            byte[] payload = new byte[n];
            java.util.Arrays.fill(payload, (byte) 'a');
            byte[] frame = client.frame(Opcodes.BINARY, true, false, payload, 0, n);
            assertEquals(n + (n < 126 ? 6 : n < 65536 ? 8 : 14), frame.length, "header size for " + n);
            assertEquals(0x80, frame[1] & 0x80, "the mask bit");
            FrameDecoder d = server();
            feedWhole(d, frame);
        }
        assertEquals(List.of("binary:0", "binary:125", "binary:126", "binary:65535", "binary:65536"), recorder.events);
        byte[] unmasked = new FrameEncoder(false).frame(Opcodes.TEXT, true, false, utf8("hi"), 0, 2);
        assertArrayEquals(new byte[]{(byte) 0x81, 2, 'h', 'i'}, unmasked);
    }

    @Test
    void aCloseReasonIsCutAtACharacterBoundary() {
        byte[] payload = FrameEncoder.closePayload(1000, "é".repeat(100));
        assertTrue(payload.length <= 125);
        assertTrue(Utf8Validator.isValid(payload, 2, payload.length - 2));
    }
}
