package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayDeque;

/**
 * The bytes a stream transport accepted but the socket did not take yet: a queue of chunks.
 * Small writes are packed into the tail chunk (16 KiB or more), so many small writes cost few
 * allocations and few system calls when the socket drains.
 * It also keeps the transport's write flow control (asyncio's {@code _FlowControlMixin}): the
 * high/low water marks and whether the protocol was told to pause writing.
 */
final class WriteBuffer {
    private static final int CHUNK = 16 * 1024;

    private final ArrayDeque<ByteBuffer> chunks = new ArrayDeque<>();
    private long size;
    private int highWater = Transport.DEFAULT_HIGH_WATER;
    private int lowWater = Transport.DEFAULT_LOW_WATER;
    private boolean protocolPaused;

    boolean isEmpty() {
        return size == 0;
    }

    long size() {
        return size;
    }

    /** Copies {@code data}'s remaining bytes in (advancing its position). */
    void append(ByteBuffer data) {
        int n = data.remaining();
        ByteBuffer tail = chunks.peekLast();
        if (tail != null && tail.capacity() - tail.limit() >= n) {
            int at = tail.limit();
            tail.limit(at + n);
            tail.put(at, data, data.position(), n);
            data.position(data.limit());
        } else {
            ByteBuffer chunk = ByteBuffer.allocate(Math.max(n, CHUNK));
            chunk.put(data).flip();
            chunks.addLast(chunk);
        }
        size += n;
    }

    /** Writes as much as {@code channel} takes now ({@link #isEmpty()} tells whether all went out). */
    void flushTo(WritableByteChannel channel) throws IOException {
        ByteBuffer head;
        while ((head = chunks.peekFirst()) != null) {
            size -= channel.write(head);
            if (head.hasRemaining()) {
                return;
            }
            chunks.pollFirst();
        }
    }

    void clear() {
        chunks.clear();
        size = 0;
    }

    // ---- flow control -----------------------------------------------------------------------

    /** Transport.setWriteBufferLimits: the new marks (which may pause the protocol at once). */
    void setLimits(int high, int low, EventLoop loop, BaseTransport transport, BaseProtocol protocol) {
        if (!(high >= low && low >= 0)) {
            throw new IllegalArgumentException("high (" + high + ") must be >= low (" + low + ") must be >= 0");
        }
        highWater = high;
        lowWater = low;
        pauseProtocolIfAboveHigh(loop, transport, protocol);
    }

    /** Transport.getWriteBufferLimits. */
    int[] limits() {
        return new int[] {highWater, lowWater};
    }

    /** Past the high water mark: the protocol's pauseWriting, once until it is resumed. */
    void pauseProtocolIfAboveHigh(EventLoop loop, BaseTransport transport, BaseProtocol protocol) {
        if (size <= highWater || protocolPaused) {
            return;
        }
        protocolPaused = true;
        try {
            protocol.pauseWriting();
        } catch (Throwable t) {
            FatalErrors.callbackFailed(loop, "protocol.pause_writing() failed", t, transport, protocol);
        }
    }

    /** Paused and down to the low water mark: the protocol's resumeWriting (which may write again). */
    void resumeProtocolIfAtLow(EventLoop loop, BaseTransport transport, BaseProtocol protocol) {
        if (!protocolPaused || size > lowWater) {
            return;
        }
        protocolPaused = false;
        try {
            protocol.resumeWriting();
        } catch (Throwable t) {
            FatalErrors.callbackFailed(loop, "protocol.resume_writing() failed", t, transport, protocol);
        }
    }
}
