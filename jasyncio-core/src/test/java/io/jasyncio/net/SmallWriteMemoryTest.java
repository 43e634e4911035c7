package io.jasyncio.net;

import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Many connections, each with a small write in flight at once: the direct memory that holds them
 * is a small chunk per connection, not a 64 KiB one (the io_uring loop copies a small write into
 * its write queue until the kernel reports it sent: 10,000 connections with a 1 KiB write in
 * flight held 640 MiB). Counted as the JDK counts direct buffers (the "direct" buffer pool), over
 * the one task step that writes on every connection, so no send completes meanwhile. The
 * readiness loops write small writes to the socket at once and hold nothing.
 */
@Timeout(60)
@EveryLoop
@EveryEngine
class SmallWriteMemoryTest {

    private static long directBytes() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        throw new AssertionError("no direct buffer pool");
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aSmallWriteInFlightOnEveryConnectionHoldsASmallChunkEach(String loopName) {
        int connections = 500;
        NetTesting.run(loopName, 50, () -> {
            WriteChunkReuseTest.Connected connected = WriteChunkReuseTest.Connected.open(connections);
            byte[] message = new byte[1024];
            long before = directBytes();
            for (Transport transport : connected.served()) { // one task step: no send completes meanwhile
                transport.write(message);
            }
            long held = directBytes() - before;
            for (StreamConnection client : connected.clients()) {
                assertEquals(message.length, client.reader().readexactly(message.length).length);
            }
            assertTrue(held <= (long) connections * 8 * 1024,
                    held / 1024 + " KiB of direct memory for " + connections + " 1 KiB writes in flight");
            connected.close();
            return null;
        });
    }
}
