package io.jasyncio.http.websocket.codec;

import java.util.Arrays;
import java.util.zip.Deflater;

/**
 * permessage-deflate's sending half (RFC 7692 §7.2.1): a message is deflated (raw DEFLATE, a
 * 15-bit window, the only one java.util.zip offers) and flushed with a sync flush, whose
 * trailing {@code 00 00 ff ff} is removed. With context takeover the window carries over to the
 * next message; without, every message starts afresh. The native deflater is made on the first
 * message and, without context takeover, freed after each one, so idle connections hold none.
 */
public final class MessageDeflater {
    private static final byte[] EMPTY_BLOCK = {0x00};

    private final boolean contextTakeover;
    private final int level;
    private Deflater deflater;
    private byte[] out = new byte[0];

    public MessageDeflater(boolean contextTakeover, int level) {
        this.contextTakeover = contextTakeover;
        this.level = level;
    }

    /** The compressed form of {@code length} bytes from {@code offset}: a new array. */
    public byte[] compress(byte[] data, int offset, int length) {
        if (deflater == null) {
            deflater = new Deflater(level, true);
        }
        deflater.setInput(data, offset, length);
        if (out.length < 64) {
            out = new byte[Math.max(64, length / 2 + 64)];
        }
        int produced = 0;
        while (true) {
            int n = deflater.deflate(out, produced, out.length - produced, Deflater.SYNC_FLUSH);
            produced += n;
            if (produced < out.length) {
                break; // the flush completed: the output did not fill the room given
            }
            out = Arrays.copyOf(out, out.length * 2);
        }
        // a sync flush ends with an empty stored block, 00 00 ff ff: the receiver appends it back
        int end = produced >= 4 ? produced - 4 : produced;
        byte[] message = end == 0 ? EMPTY_BLOCK.clone() : Arrays.copyOf(out, end);
        if (!contextTakeover) {
            release();
        }
        if (out.length > 64 * 1024) {
            out = new byte[0]; // keep no large scratch buffer past a large message
        }
        return message;
    }

    /** Frees the native deflater (made again if another message comes). */
    public void release() {
        if (deflater != null) {
            deflater.end();
            deflater = null;
        }
    }
}
