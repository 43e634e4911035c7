package io.jasyncio.net;

import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The write buffer on the loop's direct chunks, against a real socket whose peer reads slowly:
 * the socket takes part of each flush, and every byte must still arrive once and in order.
 */
@Timeout(30)
@EveryLoop
@EveryEngine
class WriteBufferTest {

    @Test
    void directChunksDeliverEveryByteInOrderThroughPartialWrites() throws Exception {
        long total = 3L << 20;
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel out = SocketChannel.open(listener.getLocalAddress());
                 SocketChannel in = listener.accept()) {
                out.setOption(StandardSocketOptions.SO_SNDBUF, 64 * 1024); // far below 3 MiB: flushes are partial
                out.configureBlocking(false);
                CompletableFuture<Long> checked = CompletableFuture.supplyAsync(() -> readCounterStream(in, total));

                DirectChunks chunks = new DirectChunks();
                WriteBuffer buffer = new WriteBuffer(chunks);
                long appended = 0;
                int piece = 1;
                int partialFlushes = 0;
                while (appended < total || !buffer.isEmpty()) {
                    if (appended < total) { // odd sizes, heap and direct, so chunks fill across boundaries
                        piece = (int) Math.min(piece * 3 + 7, 200_000);
                        int n = (int) Math.min(piece & ~3, total - appended);
                        ByteBuffer data = CounterStream.chunk(appended, n);
                        if (piece % 2 == 1) {
                            data = ByteBuffer.allocateDirect(n).put(data).flip();
                        }
                        buffer.append(data);
                        assertFalse(data.hasRemaining(), "append took only part of the data");
                        appended += n;
                    }
                    long before = buffer.size();
                    buffer.flushTo(out);
                    if (!buffer.isEmpty() && buffer.size() < before) {
                        partialFlushes++;
                    }
                    if (buffer.size() > (1 << 20) || (!buffer.isEmpty() && buffer.size() == before && appended == total)) {
                        Thread.sleep(1); // let the reader catch up
                    }
                }
                out.shutdownOutput();
                assertEquals(total, checked.get(20, TimeUnit.SECONDS));
                assertTrue(partialFlushes > 0, "the socket always took everything: nothing was tested");
            }
        }
    }

    @Test
    void sentAndClearedChunksAreReused() throws Exception {
        DirectChunks chunks = new DirectChunks();
        WriteBuffer buffer = new WriteBuffer(chunks);
        buffer.append(ByteBuffer.allocate(DirectChunks.CHUNK + 10));
        assertEquals(DirectChunks.CHUNK + 10, buffer.size());
        buffer.clear();
        assertTrue(buffer.isEmpty());
        ByteBuffer reused = chunks.take();
        assertTrue(reused.isDirect());
        assertEquals(0, reused.limit());
        chunks.give(reused);
        assertSame(reused, chunks.take(), "a given chunk is taken again");
    }

    /**
     * 100 connections with a send in flight each hold 100 chunks at once (the io_uring echo at
     * 1 KiB x 100): given back, all are kept for the next turn, which allocates none; once the
     * need falls for two windows, the extra ones go.
     */
    @Test
    void asManyChunksAsWereInUseAtOnceAreKeptUntilTheNeedFalls() {
        DirectChunks chunks = new DirectChunks();
        int connections = DirectChunks.KEPT + 36;
        ByteBuffer[] inFlight = new ByteBuffer[connections];
        for (int turn = 0; turn < 10; turn++) {
            for (int i = 0; i < connections; i++) {
                inFlight[i] = chunks.take();
            }
            for (int i = 0; i < connections; i++) {
                chunks.give(inFlight[i]);
            }
        }
        assertEquals(connections, chunks.allocated(), "each turn allocated the chunks past the kept ones again");
        assertEquals(connections, chunks.freeCount());
        for (int i = 0; i < 2 * DirectChunks.WINDOW; i++) {
            chunks.give(chunks.take()); // one at a time
        }
        assertEquals(DirectChunks.KEPT, chunks.freeCount(), "the chunks no longer needed are let go");
        assertEquals(connections, chunks.allocated());
    }

    @Test
    void noMoreThanTheMostKeptChunksOutliveABurst() {
        DirectChunks chunks = new DirectChunks();
        int burst = DirectChunks.MOST_KEPT + 100;
        ByteBuffer[] inFlight = new ByteBuffer[burst];
        for (int i = 0; i < burst; i++) {
            inFlight[i] = chunks.take();
        }
        for (int i = 0; i < burst; i++) {
            chunks.give(inFlight[i]);
        }
        assertEquals(DirectChunks.MOST_KEPT, chunks.freeCount(), "an idle loop keeps at most 64 MiB of chunks");
    }

    private static long readCounterStream(SocketChannel in, long total) {
        try (InputStream stream = Channels.newInputStream(in)) {
            byte[] block = new byte[8192];
            long at = 0;
            int n;
            while ((n = stream.read(block)) > 0) {
                for (int i = 0; i < n; i++, at++) {
                    if (block[i] != CounterStream.byteAt(at)) {
                        throw new AssertionError("wrong byte at position " + at);
                    }
                }
                if (at % (256 * 1024) < n) {
                    Thread.sleep(2); // slower than the writer
                }
            }
            return at;
        } catch (IOException | InterruptedException e) {
            throw new RuntimeException(e);
        }
    }
}
