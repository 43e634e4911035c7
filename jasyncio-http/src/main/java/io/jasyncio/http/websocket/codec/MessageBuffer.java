package io.jasyncio.http.websocket.codec;

import java.util.Arrays;

/**
 * A message's bytes as they arrive, growing with what was received (doubling), never to what a
 * frame header announced: a peer that announces 2^63 bytes and sends ten costs ten. Past
 * {@code limit} bytes, {@link ProtocolError} 1009.
 */
public final class MessageBuffer {
    private static final byte[] NONE = new byte[0];
    private static final int FIRST_SIZE = 256;

    private final long limit;
    /** The largest array: one byte past the limit (to see output beyond it), within what an array can hold. */
    private final int largest;
    private byte[] bytes = NONE;
    private int length;

    public MessageBuffer(long limit) {
        this.limit = limit;
        this.largest = (int) Math.min(limit, Integer.MAX_VALUE - 9) + 1;
    }

    /** Appends {@code n} bytes from {@code src} at {@code offset}. */
    public void append(byte[] src, int offset, int n) throws ProtocolError {
        reserve(n);
        System.arraycopy(src, offset, bytes, length, n);
        length += n;
    }

    /** Makes room for {@code n} more bytes, or fails with 1009 if the message would pass the limit. */
    public void reserve(int n) throws ProtocolError {
        long needed = (long) length + n;
        if (needed > limit) {
            throw tooBig();
        }
        if (needed > bytes.length) {
            long grown = Math.max(needed, Math.max(FIRST_SIZE, (long) bytes.length * 2));
            bytes = Arrays.copyOf(bytes, (int) Math.min(grown, largest));
        }
    }

    /**
     * Makes some room at the end for an inflater's output: up to one byte past the limit, so that
     * output beyond it is seen ({@link #advance} fails then) without inflating more.
     */
    void ensureRoom() {
        if (length == bytes.length) {
            long grown = Math.max(FIRST_SIZE, (long) bytes.length * 2);
            bytes = Arrays.copyOf(bytes, (int) Math.min(grown, largest));
        }
    }

    private ProtocolError tooBig() {
        return new ProtocolError(Opcodes.MESSAGE_TOO_BIG, "message larger than " + limit + " bytes");
    }

    /** The array being written into (valid until the next append). */
    byte[] array() {
        return bytes;
    }

    int room() {
        return bytes.length - length;
    }

    /** Counts {@code n} bytes written into {@link #array()} at {@link #length()}. */
    void advance(int n) throws ProtocolError {
        length += n;
        if (length > limit) {
            throw tooBig();
        }
    }

    public int length() {
        return length;
    }

    /** The bytes so far as an array of their own; the buffer is empty afterwards. */
    public byte[] take() {
        byte[] whole = length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
        bytes = NONE;
        length = 0;
        return whole;
    }

    /** Forgets the bytes (and drops the array). */
    public void clear() {
        bytes = NONE;
        length = 0;
    }
}
