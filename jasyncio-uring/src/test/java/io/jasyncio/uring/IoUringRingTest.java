package io.jasyncio.uring;

import io.jasyncio.loop.spi.ChannelFds;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.nio.channels.Pipe;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The ring alone: requests queued in order complete in order, each slot its own. */
class IoUringRingTest {
    @Test
    void queuedRequestsEachCompleteWithTheirOwnUserData() throws Exception {
        Pipe pipe = Pipe.open();
        try (IoUring ring = new IoUring(8)) {
            List<String> got = new ArrayList<>();
            for (int round = 0; round < 5; round++) { // past the ring's size: slots are reused correctly
                MemorySegment nop = ring.nextSqe();
                nop.set(JAVA_BYTE, 0, (byte) 0); // IORING_OP_NOP
                nop.set(JAVA_LONG, 32, 40L + round);
                IoUring.preparePoll(ring.nextSqe(), ChannelFds.fdOf(pipe.sink()), 4 /* POLLOUT */, 70L + round);
                while (got.size() < 2 * (round + 1)) {
                    ring.submitAndWait(1_000_000_000L);
                    ring.reap((userData, result, flags) -> got.add(userData + ":" + result));
                }
            }
            assertEquals(List.of("40:0", "70:4", "41:0", "71:4", "42:0", "72:4", "43:0", "73:4", "44:0", "74:4"), got);
        } finally {
            pipe.sink().close();
            pipe.source().close();
        }
    }
}
