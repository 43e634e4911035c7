package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.LoopLocal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Direct chunks for the bytes a socket transport could not send at once, reused per loop: NIO
 * writes a heap buffer through a temporary direct copy, so buffered bytes kept in direct chunks
 * go to the socket without that second copy, and reuse spares an allocation (a zeroed 64 KiB, and
 * the cleaner's work) per buffered write. The proactor transports' write queues
 * ({@link ProactorWriteQueue}) take their chunks here too, one per connection with a send in
 * flight: a send in flight needs memory that does not move. Loop thread only.
 *
 * <p>Free chunks are kept up to the most the loop had in use at once lately (this window of
 * {@value #WINDOW} takes or the last), at least {@value #KEPT}: a loop whose connections need
 * more chunks at once than a fixed bound would otherwise allocate the excess again at every turn
 * (the io_uring echo at 1 KiB x 100 connections: a 64 KiB chunk zeroed per write once more than
 * 64 sends were in flight, over half the server's CPU samples). Once the need falls, the next
 * windows let the extra chunks go to the collector, the longest unused first. Never more than
 * {@value #MOST_KEPT} (64 MiB) are kept, whatever the need: windows are counted in takes, so a
 * loop that goes idle after a burst keeps what it kept then.
 */
final class DirectChunks {
    static final int CHUNK = 64 * 1024;
    /** Free chunks kept for reuse whatever the need, per loop (4 MiB). */
    static final int KEPT = 64;
    /** Free chunks kept at most, per loop, however many were in use at once (64 MiB). */
    static final int MOST_KEPT = 1024;
    /** Takes per window of the in-use peak that sets how many free chunks are kept. */
    static final int WINDOW = 16 * 1024;

    private static final LoopLocal<DirectChunks> PER_LOOP = LoopLocal.withInitial(loop -> new DirectChunks());

    /** Free chunks, the last given back at the end (taken first: warm in the caches). */
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    /** Chunks taken and not given back. */
    private int inUse;
    /** The most chunks in use at once in this window, and in the last one. */
    private int peak;
    private int lastPeak;
    private int takesInWindow;
    private long allocated;

    static DirectChunks of(EventLoop loop) {
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
            chunk = ByteBuffer.allocateDirect(CHUNK);
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
        return Math.min(MOST_KEPT, Math.max(KEPT, Math.max(peak, lastPeak)));
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
