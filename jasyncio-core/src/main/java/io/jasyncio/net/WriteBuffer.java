package io.jasyncio.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayDeque;

/**
 * The bytes a stream transport accepted but the socket did not take yet: a queue of chunks.
 * Small writes are packed into the tail chunk (16 KiB or more), so many small writes cost few
 * allocations and few system calls when the socket drains.
 */
final class WriteBuffer {
    private static final int CHUNK = 16 * 1024;

    private final ArrayDeque<ByteBuffer> chunks = new ArrayDeque<>();
    private long size;

    boolean isEmpty() {
        return size == 0;
    }

    long size() {
        return size;
    }

    /** Copies {@code data}'s remaining bytes in (advancing its position). */
    void append(ByteBuffer data) {
        int n = data.remaining();
        ByteBuffer tail = chunks.peekLast();
        if (tail != null && tail.capacity() - tail.limit() >= n) {
            int at = tail.limit();
            tail.limit(at + n);
            tail.put(at, data, data.position(), n);
            data.position(data.limit());
        } else {
            ByteBuffer chunk = ByteBuffer.allocate(Math.max(n, CHUNK));
            chunk.put(data).flip();
            chunks.addLast(chunk);
        }
        size += n;
    }

    /** Writes as much as {@code channel} takes now ({@link #isEmpty()} tells whether all went out). */
    void flushTo(WritableByteChannel channel) throws IOException {
        ByteBuffer head;
        while ((head = chunks.peekFirst()) != null) {
            size -= channel.write(head);
            if (head.hasRemaining()) {
                return;
            }
            chunks.pollFirst();
        }
    }

    void clear() {
        chunks.clear();
        size = 0;
    }
}
