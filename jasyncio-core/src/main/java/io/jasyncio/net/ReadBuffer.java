package io.jasyncio.net;

import io.jasyncio.loop.LoopLocal;

import java.nio.ByteBuffer;

/**
 * The buffer socket reads land in: one direct buffer per loop, reused by every transport on it.
 * A read and the protocol callback that consumes it run back to back on the loop thread, so one
 * buffer serves all connections without a copy or an allocation per read (and without 256 KiB
 * per idle connection).
 */
final class ReadBuffer {
    /** asyncio's max_size for one recv. */
    static final int SIZE = 256 * 1024;

    private static final LoopLocal<ByteBuffer> PER_LOOP = LoopLocal.withInitial(loop -> ByteBuffer.allocateDirect(SIZE));

    private ReadBuffer() {
    }

    /**
     * The loop's read buffer, as it is: a reader clears it before each read. Not cleared here, as
     * a transport made inside a protocol callback (a proxy connecting upstream as bytes arrive)
     * would reset the buffer that callback is consuming.
     */
    static ByteBuffer of(io.jasyncio.loop.EventLoop loop) {
        return PER_LOOP.get(loop);
    }
}
