package io.jasyncio.uring;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A provided-buffer ring ({@code IORING_REGISTER_PBUF_RING}, Linux 5.19+): {@value #COUNT}
 * buffers of {@value #SIZE} bytes that receives fill, the kernel picking a free one
 * for each arrival and naming it in the completion. A buffer goes back to the ring once its
 * bytes were handed on, so memory follows the bytes in flight, not the connections. A receive
 * takes one buffer, so their size is what one receive can bring: 64 KiB takes a 100 KiB message
 * in two receives (and two writes of an echo), where 32 KiB took four (bench/syscalls.sh
 * --size 102400: 3.1 writes and 5.2 ring entries per message); a receive holds its buffer only
 * from its completion to the end of its callback, so 128 of them serve more connections than that.
 */
final class ProvidedBuffers {
    static final int SIZE = 64 * 1024;
    static final int COUNT = 128;
    static final short GROUP = 0;
    private static final long ENTRY = 16; // struct io_uring_buf: addr, len, bid, resv (the ring's tail in entry 0)
    private static final VarHandle SHORT = JAVA_SHORT.varHandle();

    private final MemorySegment ring;
    private final MemorySegment memory;
    private final ByteBuffer[] views = new ByteBuffer[COUNT];
    private short tail;

    ProvidedBuffers(IoUring uring, Arena arena) throws IOException {
        ring = arena.allocate(COUNT * ENTRY, 4096).fill((byte) 0);
        memory = arena.allocate((long) COUNT * SIZE, 4096);
        MemorySegment registration = arena.allocate(40, 8).fill((byte) 0);
        registration.set(JAVA_LONG, 0, ring.address());
        registration.set(JAVA_INT, 8, COUNT);
        registration.set(JAVA_SHORT, 12, GROUP);
        uring.registerBufferRing(registration);
        for (int id = 0; id < COUNT; id++) {
            views[id] = memory.asSlice((long) id * SIZE, SIZE).asByteBuffer();
            give(id);
        }
    }

    /** Buffer {@code id}'s first {@code length} bytes. */
    ByteBuffer view(int id, int length) {
        return views[id].clear().limit(length);
    }

    /** Gives buffer {@code id} back to the kernel. */
    void give(int id) {
        long at = (tail & (COUNT - 1)) * ENTRY;
        ring.set(JAVA_LONG, at, memory.address() + (long) id * SIZE);
        ring.set(JAVA_INT, at + 8, SIZE);
        ring.set(JAVA_SHORT, at + 12, (short) id);
        tail++;
        SHORT.setRelease(ring, 14L, tail);
    }
}
