package io.jasyncio.net;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * What a proactor transport accepted and the kernel has not yet reported sent, the send in flight
 * included: a queue of direct chunks from the loop's {@link DirectChunks.Sizes}, each in read mode
 * (position to limit: not sent yet). Small writes are packed into the tail chunk, even while it is
 * being sent (the send covers only the bytes that were there when it was asked for). A new chunk
 * is as small as what the queue is to hold then (the write, and what is queued before it): a
 * 1 KiB write on an empty queue takes a 4 KiB chunk, a backlog 64 KiB ones.
 */
final class ProactorWriteQueue {
    private final ArrayDeque<ByteBuffer> chunks = new ArrayDeque<>();
    private final DirectChunks.Sizes pool;
    private long size;
    /** A chunk dropped by {@link #clear} while the kernel still reads it: given back once the send completes. */
    private ByteBuffer owedByKernel;

    ProactorWriteQueue(DirectChunks.Sizes pool) {
        this.pool = pool;
    }

    boolean isEmpty() {
        return size == 0;
    }

    long size() {
        return size;
    }

    /** Copies {@code data}'s remaining bytes in (advancing its position). */
    void append(ByteBuffer data) {
        size += data.remaining();
        while (data.hasRemaining()) {
            ByteBuffer tail = chunks.peekLast();
            if (tail == null || tail.limit() == tail.capacity()) {
                tail = pool.take(size);
                chunks.addLast(tail);
            }
            int n = Math.min(data.remaining(), tail.capacity() - tail.limit());
            int at = tail.limit();
            tail.limit(at + n);
            tail.put(at, data, data.position(), n);
            data.position(data.position() + n);
        }
    }

    /** The chunk to send next (its unsent bytes), or null when there is none. */
    ByteBuffer head() {
        return chunks.peekFirst();
    }

    /**
     * The send of the head completed with {@code result} (bytes sent, or -errno: none): a chunk
     * fully sent goes back to the pool.
     */
    void sendCompleted(int result) {
        if (owedByKernel != null) {
            pool.give(owedByKernel);
            owedByKernel = null;
            return; // cleared meanwhile: nothing of it is counted any more
        }
        if (result <= 0) {
            return;
        }
        int n = result;
        ByteBuffer head = chunks.peekFirst();
        head.position(head.position() + n);
        size -= n;
        if (!head.hasRemaining()) {
            pool.give(chunks.pollFirst());
        }
    }

    /** Drops everything; {@code headInFlight}: the kernel still reads the head, which is given back in {@link #sendCompleted}. */
    void clear(boolean headInFlight) {
        ByteBuffer head = headInFlight ? chunks.pollFirst() : null;
        owedByKernel = head;
        ByteBuffer b;
        while ((b = chunks.pollFirst()) != null) {
            pool.give(b);
        }
        size = 0;
    }
}
