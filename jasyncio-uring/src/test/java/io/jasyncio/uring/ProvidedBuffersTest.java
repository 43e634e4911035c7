package io.jasyncio.uring;

import io.jasyncio.loop.spi.ChannelFds;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The provided-buffer ring against the kernel: it starts small, and when a receive finds it empty
 * ({@code ENOBUFS}) the spare buffers go into it at once, so that receive, asked again, gets one
 * even before any buffer in use comes back.
 */
class ProvidedBuffersTest {
    private static final int ENOBUFS = 105;

    @Test
    void aReceiveThatFoundTheRingEmptyGetsASpareBufferWhenAskedAgain() throws Exception {
        int receives = 17; // one more than the ring holds at first
        List<SocketChannel> channels = new ArrayList<>();
        try (Arena arena = Arena.ofConfined();
             IoUring ring = new IoUring(64);
             ServerSocketChannel listener = ServerSocketChannel.open()) {
            ProvidedBuffers buffers = new ProvidedBuffers(ring, arena);
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            List<SocketChannel> receivers = new ArrayList<>();
            for (int i = 0; i < receives; i++) {
                SocketChannel sender = SocketChannel.open(listener.getLocalAddress());
                SocketChannel receiver = listener.accept();
                channels.add(sender);
                channels.add(receiver);
                receivers.add(receiver);
                sender.write(ByteBuffer.wrap(new byte[] {(byte) i})); // each has a byte waiting
            }
            for (int i = 0; i < receives; i++) {
                IoUring.prepareRecvProvided(ring.nextSqe(), ChannelFds.fdOf(receivers.get(i)), ProvidedBuffers.GROUP,
                        false, i + 1);
            }
            Map<Long, Integer> results = reap(ring, buffers, receives);
            List<Long> refused = results.entrySet().stream().filter(e -> e.getValue() == -ENOBUFS)
                    .map(Map.Entry::getKey).toList();
            assertEquals(receives - 1, results.values().stream().filter(r -> r == 1).count(), results.toString());
            assertEquals(1, refused.size(), "the 17th found the ring empty: " + results);

            buffers.ranOut(); // what the poller does at ENOBUFS; no buffer in use was given back
            long again = refused.getFirst();
            IoUring.prepareRecvProvided(ring.nextSqe(), ChannelFds.fdOf(receivers.get((int) again - 1)),
                    ProvidedBuffers.GROUP, false, again);
            assertEquals(Map.of(again, 1), reap(ring, buffers, 1), "asked again, it got a spare buffer");
        } finally {
            for (SocketChannel c : channels) {
                c.close();
            }
        }
    }

    /** Waits for {@code n} completions; a completion that took a buffer is counted as taken, as the poller does. */
    private static Map<Long, Integer> reap(IoUring ring, ProvidedBuffers buffers, int n) throws Exception {
        Map<Long, Integer> results = new HashMap<>();
        for (int turn = 0; turn < 100 && results.size() < n; turn++) {
            ring.submitAndWait(100_000_000L);
            ring.reap((userData, result, flags) -> {
                if ((flags & IoUring.CQE_F_BUFFER) != 0) {
                    buffers.taken();
                }
                results.put(userData, result);
            });
        }
        assertTrue(results.size() >= n, "completions: " + results);
        return results;
    }
}
