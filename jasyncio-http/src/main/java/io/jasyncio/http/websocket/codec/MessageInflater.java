package io.jasyncio.http.websocket.codec;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * permessage-deflate's receiving half (RFC 7692 §7.2.2): the compressed payload is inflated as
 * its frames arrive, into a {@link MessageBuffer} bounded by the message size limit, so a small
 * frame that inflates to gigabytes (a zip bomb) fails with 1009 once it passes the limit, having
 * taken no more memory than the limit. At the end of the message the {@code 00 00 ff ff} the
 * sender removed is fed back. Without context takeover the inflater starts afresh for each
 * message; the native inflater is made on the first compressed message and, without context
 * takeover, freed after each one.
 */
public final class MessageInflater {
    private static final byte[] TAIL = {0x00, 0x00, (byte) 0xff, (byte) 0xff};

    private final boolean contextTakeover;
    private Inflater inflater;

    public MessageInflater(boolean contextTakeover) {
        this.contextTakeover = contextTakeover;
    }

    /** Inflates {@code length} compressed bytes from {@code offset} into {@code into}. */
    public void inflate(byte[] data, int offset, int length, MessageBuffer into) throws ProtocolError {
        if (inflater == null) {
            inflater = new Inflater(true);
        }
        inflater.setInput(data, offset, length);
        drain(into);
    }

    /** The message's last frame came: feeds the removed tail and ends the message. */
    public void finish(MessageBuffer into) throws ProtocolError {
        if (inflater == null) {
            inflater = new Inflater(true);
        }
        if (!inflater.finished()) {
            inflater.setInput(TAIL);
            drain(into);
        }
        if (!contextTakeover || inflater.finished()) {
            // without context takeover, or after a final block (BFINAL), the next message starts afresh
            release();
        }
    }

    private void drain(MessageBuffer into) throws ProtocolError {
        try {
            while (!inflater.finished()) {
                into.ensureRoom();
                int n = inflater.inflate(into.array(), into.length(), into.room());
                into.advance(n);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
            }
        } catch (DataFormatException e) {
            throw new ProtocolError(Opcodes.INVALID_PAYLOAD, "invalid compressed data");
        }
    }

    /** Frees the native inflater. */
    public void release() {
        if (inflater != null) {
            inflater.end();
            inflater = null;
        }
    }
}
