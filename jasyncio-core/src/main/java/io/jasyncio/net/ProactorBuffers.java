package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.LoopLocal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The direct buffers a loop's proactor transports receive into and send from, pooled per loop. A
 * request in flight needs memory the kernel can fill or read until it completes (a heap buffer may
 * move), so each connection holds a buffer only while it has a request in flight, and gives it
 * back afterwards for the next connection; at most {@value #KEPT} are kept idle.
 */
final class ProactorBuffers {
    /** One receive, one chunk of the write queue. */
    static final int SIZE = 64 * 1024;
    private static final int KEPT = 256;
    private static final LoopLocal<ProactorBuffers> PER_LOOP = LoopLocal.withInitial(loop -> new ProactorBuffers());

    private final ArrayDeque<ByteBuffer> idle = new ArrayDeque<>();

    private ProactorBuffers() {
    }

    static ProactorBuffers of(EventLoop loop) {
        return PER_LOOP.get(loop);
    }

    /** A cleared buffer of {@value #SIZE} bytes. */
    ByteBuffer take() {
        ByteBuffer b = idle.pollLast();
        return b != null ? b.clear() : ByteBuffer.allocateDirect(SIZE);
    }

    /** Gives {@code b} back: the kernel is done with it. */
    void give(ByteBuffer b) {
        if (idle.size() < KEPT) {
            idle.addLast(b);
        }
    }
}
