package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.LoopLocal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Direct chunks for the bytes a socket transport could not send at once, reused per loop: NIO
 * writes a heap buffer through a temporary direct copy, so buffered bytes kept in direct chunks
 * go to the socket without that second copy, and reuse spares an allocation (a zeroed chunk, and
 * the cleaner's work) per buffered write. One pool holds chunks of one size: {@link #of} the
 * 64 KiB ones (the readiness transports' write buffers); the proactor transports' write queues
 * ({@link ProactorWriteQueue}) take theirs from {@link Sizes}, a chunk as small as what it is to
 * hold (4 KiB, 16 KiB or 64 KiB), one per connection with a send in flight: a send in flight
 * needs memory that does not move, and a 1 KiB write in flight on each of 10,000 connections
 * holds 40 MiB, not 640 MiB. Loop thread only.
 *
 * <p>Free chunks are kept up to the most the loop had in use at once lately (this window of
 * {@value #WINDOW} takes or the last), at least 4 MiB of them ({@value #KEPT} 64 KiB chunks): a
 * loop whose connections need more chunks at once than a fixed bound would otherwise allocate the
 * excess again at every turn (the io_uring echo at 1 KiB x 100 connections: a 64 KiB chunk zeroed
 * per write once more than 64 sends were in flight, over half the server's CPU samples). Once the
 * need falls, the next windows let the extra chunks go to the collector, the longest unused
 * first. Never more than 64 MiB per pool ({@value #MOST_KEPT} 64 KiB chunks) are kept, whatever
 * the need: windows are counted in takes, so a loop that goes idle after a burst keeps what it
 * kept then.
 */
final class DirectChunks {
    static final int CHUNK = 64 * 1024;
    /** Free 64 KiB chunks kept for reuse whatever the need, per loop (4 MiB; as many bytes of smaller chunks). */
    static final int KEPT = 64;
    /** Free 64 KiB chunks kept at most, per loop, however many were in use at once (64 MiB; as many bytes of smaller chunks). */
    static final int MOST_KEPT = 1024;
    /** Takes per window of the in-use peak that sets how many free chunks are kept. */
    static final int WINDOW = 16 * 1024;

    private static final LoopLocal<Sizes> PER_LOOP = LoopLocal.withInitial(loop -> new Sizes());

    /** The loop's pools of 4 KiB, 16 KiB and 64 KiB chunks: a chunk as small as the bytes it is to hold. */
    static final class Sizes {
        static final int SMALL = 4 * 1024;
        static final int MEDIUM = 16 * 1024;
        private final DirectChunks small = new DirectChunks(SMALL);
        private final DirectChunks medium = new DirectChunks(MEDIUM);
        private final DirectChunks large = new DirectChunks(CHUNK);

        /** An empty chunk of the smallest size that holds {@code bytes} (64 KiB at most). */
        ByteBuffer take(long bytes) {
            return (bytes <= SMALL ? small : bytes <= MEDIUM ? medium : large).take();
        }

        /** A chunk nobody refers to any more, back to the pool of its size. */
        void give(ByteBuffer chunk) {
            int size = chunk.capacity();
            (size == SMALL ? small : size == MEDIUM ? medium : large).give(chunk);
        }

        /** How many bytes of chunks were ever allocated, every size (for tests). */
        long allocatedBytes() {
            return small.allocated() * SMALL + medium.allocated() * MEDIUM + large.allocated() * CHUNK;
        }
    }

    private final int size;
    private final int leastKept;
    private final int mostKept;
    /** Free chunks, the last given back at the end (taken first: warm in the caches). */
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    /** Chunks taken and not given back. */
    private int inUse;
    /** The most chunks in use at once in this window, and in the last one. */
    private int peak;
    private int lastPeak;
    private int takesInWindow;
    private long allocated;

    /** A pool of 64 KiB chunks. */
    DirectChunks() {
        this(CHUNK);
    }

    /** A pool of chunks of {@code size} bytes (a divisor of 64 KiB). */
    DirectChunks(int size) {
        this.size = size;
        this.leastKept = KEPT * (CHUNK / size);
        this.mostKept = MOST_KEPT * (CHUNK / size);
    }

    /** The loop's pool of 64 KiB chunks. */
    static DirectChunks of(EventLoop loop) {
        return PER_LOOP.get(loop).large;
    }

    /** The loop's pools of every size. */
    static Sizes sizesOf(EventLoop loop) {
        return PER_LOOP.get(loop);
    }

    /** An empty chunk (position 0, limit 0), ready to be filled up to its capacity. */
    ByteBuffer take() {
        if (++inUse > peak) {
            peak = inUse;
        }
        if (++takesInWindow == WINDOW) {
            takesInWindow = 0;
            lastPeak = peak;
            peak = inUse;
            while (free.size() > kept()) {
                free.pollFirst(); // unused for a whole window
            }
        }
        ByteBuffer chunk = free.pollLast();
        if (chunk == null) {
            allocated++;
            chunk = ByteBuffer.allocateDirect(size);
        }
        return chunk.limit(0);
    }

    /** A chunk nobody refers to any more. */
    void give(ByteBuffer chunk) {
        inUse--;
        if (free.size() < kept()) {
            free.addLast(chunk.clear());
        }
    }

    private int kept() {
        return Math.min(mostKept, Math.max(leastKept, Math.max(peak, lastPeak)));
    }

    /** How many chunks were ever allocated (for tests). */
    long allocated() {
        return allocated;
    }

    /** How many free chunks are kept now (for tests). */
    int freeCount() {
        return free.size();
    }
}
