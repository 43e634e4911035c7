package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The bytes a stream transport accepted but the socket did not take yet: a queue of chunks.
 * Small writes are packed into the tail chunk (16 KiB or more), so many small writes cost few
 * allocations and few system calls when the socket drains. Made with {@link DirectChunks}, the
 * chunks are the loop's reusable direct 64 KiB ones instead (returned when sent or dropped), and a
 * drain writes several of them in one gathering write, without NIO's copy of heap buffers.
 * The transport's flow control over its size is {@link WriteFlowControl}'s.
 */
final class WriteBuffer {
    private static final int CHUNK = 16 * 1024;

    private ArrayDeque<ByteBuffer> chunks;   // made at the first append: an idle connection holds none
    private final DirectChunks direct;       // null: heap chunks
    private ByteBuffer[] gather;             // the chunks of one gathering write (direct chunks only)
    private long size;

    /** Heap chunks. */
    WriteBuffer() {
        this(null);
    }

    /** The loop's reusable direct chunks ({@code direct} may be null: heap chunks). */
    WriteBuffer(DirectChunks direct) {
        this.direct = direct;
    }

    boolean isEmpty() {
        return size == 0;
    }

    long size() {
        return size;
    }

    /** Copies {@code data}'s remaining bytes in (advancing its position). */
    void append(ByteBuffer data) {
        if (chunks == null) {
            chunks = new ArrayDeque<>(4);
        }
        if (direct != null) {
            appendToDirectChunks(data);
            return;
        }
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

    private void appendToDirectChunks(ByteBuffer data) {
        size += data.remaining();
        while (data.hasRemaining()) {
            ByteBuffer tail = chunks.peekLast();
            if (tail == null || tail.limit() == tail.capacity()) {
                tail = direct.take();
                chunks.addLast(tail);
            }
            int at = tail.limit();
            int n = Math.min(data.remaining(), tail.capacity() - at);
            tail.limit(at + n);
            tail.put(at, data, data.position(), n);
            data.position(data.position() + n);
        }
    }

    /** Writes as much as {@code channel} takes now ({@link #isEmpty()} tells whether all went out). */
    void flushTo(WritableByteChannel channel) throws IOException {
        if (chunks == null) {
            return;
        }
        if (direct != null && channel instanceof GatheringByteChannel gathering) {
            flushGathering(gathering);
            return;
        }
        ByteBuffer head;
        while ((head = chunks.peekFirst()) != null) {
            size -= channel.write(head);
            if (head.hasRemaining()) {
                return;
            }
            release(chunks.pollFirst());
        }
    }

    /** Up to 16 chunks a system call; sent chunks go back to the loop's reusable ones. */
    private void flushGathering(GatheringByteChannel channel) throws IOException {
        if (gather == null) {
            gather = new ByteBuffer[16];
        }
        while (!chunks.isEmpty()) {
            int n = 0;
            for (ByteBuffer chunk : chunks) {
                gather[n++] = chunk;
                if (n == gather.length) {
                    break;
                }
            }
            long wrote = channel.write(gather, 0, n);
            Arrays.fill(gather, 0, n, null);
            size -= wrote;
            ByteBuffer head;
            while ((head = chunks.peekFirst()) != null && !head.hasRemaining()) {
                release(chunks.pollFirst());
            }
            if (wrote == 0 || (head != null && head.position() > 0)) {
                return; // the socket took what it could: the rest waits for the next writable event
            }
        }
    }

    private void release(ByteBuffer chunk) {
        if (direct != null) {
            direct.give(chunk);
        }
    }

    void clear() {
        ByteBuffer chunk;
        while (chunks != null && (chunk = chunks.pollFirst()) != null) {
            release(chunk);
        }
        size = 0;
    }
}
