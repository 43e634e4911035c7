package io.jasyncio.http.codec;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The bytes a server connection read and has not parsed yet: requests pipelined after one being
 * answered (they wait, as requests are answered in order), or what arrived while parsing was
 * stopped. One array per connection, grown by what arrives and reused; no I/O.
 */
public final class PipelinedInput {
    private static final byte[] NOTHING = new byte[0];

    private byte[] bytes = NOTHING;
    private int start;
    private int end;
    private ByteBuffer view;

    /** Whether nothing is held. */
    public boolean isEmpty() {
        return end == start;
    }

    /** How many bytes are held. */
    public int size() {
        return end - start;
    }

    /** Keeps the rest of {@code data} (its position moves to its limit). */
    public void hold(ByteBuffer data) {
        int n = data.remaining();
        if (end + n > bytes.length) {
            int held = end - start;
            if (held + n <= bytes.length) {
                System.arraycopy(bytes, start, bytes, 0, held);
            } else {
                bytes = Arrays.copyOfRange(bytes, start, start + Math.max(held + n, bytes.length * 2));
            }
            start = 0;
            end = held;
            view = ByteBuffer.wrap(bytes);
        }
        data.get(bytes, end, n);
        end += n;
    }

    /**
     * The held bytes to parse (a view reused each time, valid until the next {@link #hold}); tell
     * {@link #consumed} how far the parser got.
     */
    public ByteBuffer parseView() {
        return view.limit(end).position(start);
    }

    /** The parser took {@code view}'s bytes up to its position (of {@link #parseView}). */
    public void consumed(ByteBuffer view) {
        start = Math.min(view.position(), end); // cleared meanwhile (a close): nothing is held
        if (start == end) {
            start = end = 0;
        }
    }

    /** Forgets what is held (requests after a closing one are not answered). */
    public void clear() {
        start = end = 0;
    }

    /** A copy of what is held, and then nothing is held and the array is let go (the connection is handed over). */
    public ByteBuffer takeAll() {
        ByteBuffer rest = ByteBuffer.wrap(Arrays.copyOfRange(bytes, start, end));
        bytes = NOTHING;
        view = null;
        start = end = 0;
        return rest;
    }
}
