package io.jasyncio.uring;

import io.jasyncio.nativeio.Downcalls;

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
 * takes one buffer, so their size is what one receive can bring: 128 KiB takes a 100 KiB message
 * in one receive (and one write of an echo), where 64 KiB took two and 32 KiB four
 * (bench/syscalls.sh --size 102400: 2.06 and 5.2 ring entries per message, 1.1-1.2 now); a
 * receive holds its buffer only from its completion to the end of its callback, so 128 of them
 * serve more connections than that. The 16 MiB are anonymous memory mapped untouched: a page
 * takes memory only once a receive wrote it, so a loop of small messages holds a few pages of
 * each buffer it used, not 16 MiB.
 *
 * <p>The kernel takes buffers from the ring in the order they were given, so a ring holding every
 * free buffer would cycle through all of them, each receive landing in memory long out of the CPU's
 * caches (the kernel's copies in and out of it cost about twice the C echo server's per byte at
 * 100 KiB x 10). The ring holds only as many as the loop has needed at once (at first
 * {@value #FIRST_IN_RING}, doubled at each {@code ENOBUFS}); the rest wait on a stack, the
 * last given back on top, so the buffers in use stay few and warm.
 */
final class ProvidedBuffers {
    static final int SIZE = 128 * 1024;
    static final int COUNT = 128;
    static final short GROUP = 0;
    private static final long ENTRY = 16; // struct io_uring_buf: addr, len, bid, resv (the ring's tail in entry 0)
    private static final VarHandle SHORT = JAVA_SHORT.varHandle();

    private final MemorySegment ring;
    private final MemorySegment memory;
    private static final int FIRST_IN_RING = 16;
    private final ByteBuffer[] views = new ByteBuffer[COUNT];
    private short tail;
    /** Buffers in the ring, not yet taken by a receive. */
    private int inRing;
    /** How many buffers the ring is kept at. */
    private int wanted = FIRST_IN_RING;
    /** Free buffers kept out of the ring, the last given back on top. */
    private final int[] spare = new int[COUNT];
    private int spareCount;

    ProvidedBuffers(IoUring uring, Arena arena) throws IOException {
        ring = arena.allocate(COUNT * ENTRY, 4096).fill((byte) 0);
        memory = UringSys.mmapAnonymous(new Downcalls.Errno(arena), (long) COUNT * SIZE, arena);
        if (memory == null) {
            throw new IOException("mmap of the provided buffers failed");
        }
        MemorySegment registration = arena.allocate(40, 8).fill((byte) 0);
        registration.set(JAVA_LONG, 0, ring.address());
        registration.set(JAVA_INT, 8, COUNT);
        registration.set(JAVA_SHORT, 12, GROUP);
        uring.registerBufferRing(registration);
        for (int id = COUNT - 1; id >= 0; id--) {
            views[id] = memory.asSlice((long) id * SIZE, SIZE).asByteBuffer();
            give(id);
        }
    }

    /** Buffer {@code id}'s first {@code length} bytes. */
    ByteBuffer view(int id, int length) {
        return views[id].clear().limit(length);
    }

    /** A receive's completion named a buffer: the kernel took it out of the ring. */
    void taken() {
        inRing--;
    }

    /** Gives buffer {@code id} back: to the ring if it is below what the loop needs, else onto the stack. */
    void give(int id) {
        if (inRing < wanted) {
            publish(id);
        } else {
            spare[spareCount++] = id;
        }
    }

    /** A receive found the ring empty: the loop needs more buffers at once than it holds; twice as many, as far as there are. */
    void ranOut() {
        wanted = Math.min(COUNT, wanted * 2);
        while (inRing < wanted && spareCount > 0) {
            publish(spare[--spareCount]);
        }
    }

    private void publish(int id) {
        inRing++;
        long at = (tail & (COUNT - 1)) * ENTRY;
        ring.set(JAVA_LONG, at, memory.address() + (long) id * SIZE);
        ring.set(JAVA_INT, at + 8, SIZE);
        ring.set(JAVA_SHORT, at + 12, (short) id);
        tail++;
        SHORT.setRelease(ring, 14L, tail);
    }
}
