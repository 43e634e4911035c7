package io.jasyncio.http.websocket.codec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static io.jasyncio.http.websocket.codec.Opcodes.BINARY;
import static io.jasyncio.http.websocket.codec.Opcodes.CLOSE;
import static io.jasyncio.http.websocket.codec.Opcodes.CONTINUATION;
import static io.jasyncio.http.websocket.codec.Opcodes.INVALID_PAYLOAD;
import static io.jasyncio.http.websocket.codec.Opcodes.MAX_CONTROL_PAYLOAD;
import static io.jasyncio.http.websocket.codec.Opcodes.MESSAGE_TOO_BIG;
import static io.jasyncio.http.websocket.codec.Opcodes.NO_STATUS_RECEIVED;
import static io.jasyncio.http.websocket.codec.Opcodes.PING;
import static io.jasyncio.http.websocket.codec.Opcodes.PONG;
import static io.jasyncio.http.websocket.codec.Opcodes.PROTOCOL_ERROR;
import static io.jasyncio.http.websocket.codec.Opcodes.TEXT;

/**
 * RFC 6455's receiving side, free of I/O: bytes in (in pieces of any size), whole messages and
 * control frames out, to {@link Events}. It unmasks, joins fragments, inflates permessage-deflate
 * messages, validates text as UTF-8 as it arrives, and refuses what the RFC forbids with the
 * close code to fail the connection with ({@link ProtocolError}): 1002 for reserved bits or
 * opcodes, a mask where there must be none or none where there must be one, a fragmented or
 * oversized control frame, a continuation out of place, a bad close code; 1007 for invalid
 * UTF-8 or compressed data; 1009 for a frame or message over its limit (checked against the
 * announced length, before a byte of it is held). Memory follows the bytes received. After a
 * close frame, nothing more is decoded.
 */
public final class FrameDecoder {
    /** What the decoder reports, in wire order. */
    public interface Events {
        void onText(String text);

        void onBinary(byte[] data);

        void onPing(byte[] payload);

        void onPong(byte[] payload);

        /** A close frame: its code ({@code 1005} when it had none) and reason. */
        void onClose(int code, String reason);
    }

    private final boolean expectMasked;
    private final long maxFrameSize;
    private final long maxMessageSize;
    private final MessageInflater inflater;
    private final Events events;

    // the frame header being read
    private final byte[] header = new byte[14];
    private int headerLength;
    private int headerNeeded = 2;
    private boolean inPayload;

    // the frame whose payload is being read
    private boolean fin;
    private int opcode;
    private final byte[] mask = new byte[4];
    private boolean masked;
    private int maskOffset;
    private long payloadLeft;

    // the data message being assembled (messageOpcode 0: none)
    private int messageOpcode;
    private boolean compressed;
    private final MessageBuffer message;
    private final Utf8Validator utf8 = new Utf8Validator();
    private byte[] scratch = new byte[0];

    // the control frame being read
    private final byte[] control = new byte[MAX_CONTROL_PAYLOAD];
    private int controlLength;

    private boolean closeReceived;
    private ProtocolError failure;

    /**
     * {@code expectMasked}: true on a server (every client frame is masked), false on a client
     * (no server frame is). {@code inflater}: the agreed permessage-deflate, or null (then RSV1 is
     * refused).
     */
    public FrameDecoder(boolean expectMasked, long maxFrameSize, long maxMessageSize, MessageInflater inflater,
                        Events events) {
        this.expectMasked = expectMasked;
        this.maxFrameSize = maxFrameSize;
        this.maxMessageSize = maxMessageSize;
        this.inflater = inflater;
        this.events = events;
        this.message = new MessageBuffer(maxMessageSize);
    }

    /**
     * Decodes what {@code data} holds from its position to its limit (consuming it), reporting
     * each message and control frame as it completes. Throws the first violation (and again on
     * every later call). Unmasks in place: {@code data}'s bytes are changed.
     */
    public void feed(ByteBuffer data) throws ProtocolError {
        if (failure != null) {
            throw failure;
        }
        try {
            while (data.hasRemaining() && !closeReceived) {
                if (inPayload) {
                    payload(data);
                } else {
                    header(data);
                }
            }
            if (closeReceived) {
                data.position(data.limit()); // nothing is read after a close frame
            }
        } catch (ProtocolError e) {
            failure = e;
            release();
            throw e;
        }
    }

    /** Whether a close frame was decoded (and nothing more will be). */
    public boolean closeReceived() {
        return closeReceived;
    }

    /** Frees the inflater and the message held (the connection is over). */
    public void release() {
        message.clear();
        if (inflater != null) {
            inflater.release();
        }
    }

    // ---- the header ----------------------------------------------------------------------------

    private void header(ByteBuffer data) throws ProtocolError {
        while (headerLength < headerNeeded && data.hasRemaining()) {
            header[headerLength++] = data.get();
            if (headerLength == 2) {
                firstTwoBytes();
            }
        }
        if (headerLength == headerNeeded) {
            startFrame(data);
        }
    }

    /** Checks the first two bytes at once (fail fast) and learns how long the header is. */
    private void firstTwoBytes() throws ProtocolError {
        int b0 = header[0] & 0xff;
        int b1 = header[1] & 0xff;
        fin = (b0 & 0x80) != 0;
        boolean rsv1 = (b0 & 0x40) != 0;
        opcode = b0 & 0x0f;
        masked = (b1 & 0x80) != 0;
        int length7 = b1 & 0x7f;
        if ((b0 & 0x30) != 0) {
            throw new ProtocolError(PROTOCOL_ERROR, "reserved bits RSV2/RSV3 set");
        }
        if (masked != expectMasked) {
            throw new ProtocolError(PROTOCOL_ERROR, expectMasked ? "a client frame must be masked" : "a server frame must not be masked");
        }
        switch (opcode) {
            case CONTINUATION -> {
                if (messageOpcode == 0) {
                    throw new ProtocolError(PROTOCOL_ERROR, "a continuation frame with no message to continue");
                }
                if (rsv1) {
                    throw new ProtocolError(PROTOCOL_ERROR, "RSV1 set on a continuation frame");
                }
            }
            case TEXT, BINARY -> {
                if (messageOpcode != 0) {
                    throw new ProtocolError(PROTOCOL_ERROR, "a new message before the fragmented one ended");
                }
                if (rsv1 && inflater == null) {
                    throw new ProtocolError(PROTOCOL_ERROR, "RSV1 set without a negotiated extension");
                }
                messageOpcode = opcode;
                compressed = rsv1;
            }
            case CLOSE, PING, PONG -> {
                if (rsv1) {
                    throw new ProtocolError(PROTOCOL_ERROR, "RSV1 set on a control frame");
                }
                if (!fin) {
                    throw new ProtocolError(PROTOCOL_ERROR, "a fragmented control frame");
                }
                if (length7 > MAX_CONTROL_PAYLOAD) {
                    throw new ProtocolError(PROTOCOL_ERROR, "a control frame longer than 125 bytes");
                }
            }
            default -> throw new ProtocolError(PROTOCOL_ERROR, "reserved opcode " + opcode);
        }
        headerNeeded = 2 + (length7 == 126 ? 2 : length7 == 127 ? 8 : 0) + (masked ? 4 : 0);
    }

    private void startFrame(ByteBuffer data) throws ProtocolError {
        int length7 = header[1] & 0x7f;
        int at = 2;
        long length;
        if (length7 == 126) {
            length = (header[2] & 0xff) << 8 | header[3] & 0xff;
            at = 4;
        } else if (length7 == 127) {
            length = 0;
            for (int i = 2; i < 10; i++) {
                length = length << 8 | header[i] & 0xff;
            }
            if (length < 0) {
                throw new ProtocolError(PROTOCOL_ERROR, "a 64-bit length with its top bit set");
            }
            at = 10;
        } else {
            length = length7;
        }
        if (masked) {
            System.arraycopy(header, at, mask, 0, 4);
        }
        // a compressed frame may be what deflate makes of a frame within the limit: stored blocks
        // add 5 bytes per 16 KiB, and a few at the ends
        long frameLimit = compressed && !Opcodes.isControl(opcode) ? maxFrameSize + maxFrameSize / 16384 * 5 + 64 : maxFrameSize;
        if (length > frameLimit) {
            throw new ProtocolError(MESSAGE_TOO_BIG, "frame of " + length + " bytes, over the limit of " + maxFrameSize);
        }
        if (!Opcodes.isControl(opcode) && !compressed && message.length() + length > maxMessageSize) {
            throw new ProtocolError(MESSAGE_TOO_BIG, "message over the limit of " + maxMessageSize + " bytes");
        }
        headerLength = 0;
        headerNeeded = 2;
        maskOffset = 0;
        payloadLeft = length;
        controlLength = 0;
        inPayload = true;
        if (length == 0) {
            endFrame();
        } else if (fin && (opcode == TEXT || opcode == BINARY) && !compressed && data.remaining() >= length) {
            wholeMessage(data, (int) length); // the common case: a whole small message in one read
        }
    }

    // ---- the payload ---------------------------------------------------------------------------

    /** A whole unfragmented, uncompressed message present in {@code data}: one array, no copying. */
    private void wholeMessage(ByteBuffer data, int length) throws ProtocolError {
        byte[] bytes = new byte[length];
        data.get(bytes);
        unmask(bytes, 0, length);
        payloadLeft = 0;
        inPayload = false;
        messageOpcode = 0;
        if (opcode == TEXT) {
            if (!Utf8Validator.isValid(bytes, 0, length)) {
                throw new ProtocolError(INVALID_PAYLOAD, "invalid UTF-8 in a text message");
            }
            events.onText(new String(bytes, StandardCharsets.UTF_8));
        } else {
            events.onBinary(bytes);
        }
    }

    private void payload(ByteBuffer data) throws ProtocolError {
        int n = (int) Math.min(payloadLeft, data.remaining());
        if (Opcodes.isControl(opcode)) {
            data.get(control, controlLength, n);
            unmask(control, controlLength, n);
            controlLength += n;
        } else if (compressed) {
            if (scratch.length < Math.min(n, 64 * 1024)) {
                scratch = new byte[Math.min(Math.max(n, 1024), 64 * 1024)];
            }
            n = Math.min(n, scratch.length); // inflated a piece at a time
            data.get(scratch, 0, n);
            unmask(scratch, 0, n);
            int before = message.length();
            inflater.inflate(scratch, 0, n, message);
            validateText(before);
        } else {
            int before = message.length();
            message.reserve(n);
            data.get(message.array(), before, n);
            message.advance(n);
            unmask(message.array(), before, n);
            validateText(before);
        }
        payloadLeft -= n;
        if (payloadLeft == 0) {
            endFrame();
        }
    }

    /** Validates the text bytes added to the message since {@code from}: invalid UTF-8 fails at once. */
    private void validateText(int from) throws ProtocolError {
        if (messageOpcode == TEXT && !utf8.feed(message.array(), from, message.length() - from)) {
            throw new ProtocolError(INVALID_PAYLOAD, "invalid UTF-8 in a text message");
        }
    }

    private void unmask(byte[] bytes, int offset, int length) {
        if (!masked) {
            return;
        }
        int m = maskOffset;
        for (int i = offset, end = offset + length; i < end; i++) {
            bytes[i] ^= mask[m & 3];
            m++;
        }
        maskOffset = m & 3;
    }

    private void endFrame() throws ProtocolError {
        inPayload = false;
        switch (opcode) {
            case PING -> events.onPing(controlPayload());
            case PONG -> events.onPong(controlPayload());
            case CLOSE -> close();
            default -> {
                if (fin) {
                    endMessage();
                }
            }
        }
    }

    private void endMessage() throws ProtocolError {
        if (compressed) {
            int before = message.length();
            inflater.finish(message);
            validateText(before);
        }
        int type = messageOpcode;
        messageOpcode = 0;
        compressed = false;
        if (type == TEXT) {
            if (!utf8.isComplete()) {
                throw new ProtocolError(INVALID_PAYLOAD, "a text message ends inside a UTF-8 sequence");
            }
            utf8.reset();
            String text = new String(message.array(), 0, message.length(), StandardCharsets.UTF_8);
            message.clear();
            events.onText(text);
        } else {
            events.onBinary(message.take());
        }
    }

    private byte[] controlPayload() {
        byte[] payload = new byte[controlLength];
        System.arraycopy(control, 0, payload, 0, controlLength);
        return payload;
    }

    private void close() throws ProtocolError {
        if (controlLength == 1) {
            throw new ProtocolError(PROTOCOL_ERROR, "a close frame with a one-byte payload");
        }
        int code = NO_STATUS_RECEIVED;
        String reason = "";
        if (controlLength >= 2) {
            code = (control[0] & 0xff) << 8 | control[1] & 0xff;
            if (!Opcodes.isSendableCloseCode(code)) {
                throw new ProtocolError(PROTOCOL_ERROR, "invalid close code " + code);
            }
            if (!Utf8Validator.isValid(control, 2, controlLength - 2)) {
                throw new ProtocolError(INVALID_PAYLOAD, "invalid UTF-8 in a close reason");
            }
            reason = new String(control, 2, controlLength - 2, StandardCharsets.UTF_8);
        }
        closeReceived = true;
        release();
        events.onClose(code, reason);
    }
}
