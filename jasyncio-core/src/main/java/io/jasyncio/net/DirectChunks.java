package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.LoopLocal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Direct chunks for the bytes a socket transport could not send at once, reused per loop: NIO
 * writes a heap buffer through a temporary direct copy, so buffered bytes kept in direct chunks
 * go to the socket without that second copy, and reuse spares an allocation (and the cleaner's
 * work) per buffered write. The proactor transports' write queues ({@link ProactorWriteQueue})
 * take their chunks here too: a send in flight needs memory that does not move. Loop thread only; at most {@link #KEPT} free chunks are kept.
 */
final class DirectChunks {
    static final int CHUNK = 64 * 1024;
    /** Free chunks kept for reuse, per loop (4 MiB); more are left to the collector. */
    static final int KEPT = 64;

    private static final LoopLocal<DirectChunks> PER_LOOP = LoopLocal.withInitial(loop -> new DirectChunks());

    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();

    static DirectChunks of(EventLoop loop) {
        return PER_LOOP.get(loop);
    }

    /** An empty chunk (position 0, limit 0), ready to be filled up to its capacity. */
    ByteBuffer take() {
        ByteBuffer chunk = free.pollLast();
        return (chunk != null ? chunk : ByteBuffer.allocateDirect(CHUNK)).limit(0);
    }

    /** A chunk nobody refers to any more. */
    void give(ByteBuffer chunk) {
        if (free.size() < KEPT) {
            free.addLast(chunk.clear());
        }
    }
}
