package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;

/**
 * A transport's write flow control over a byte count it keeps itself (asyncio's
 * {@code _FlowControlMixin}): the high/low water marks and whether the protocol was told to
 * pause writing. Every writing transport keeps one over its own count: the socket and pipe
 * transports over their {@link WriteBuffer}, datagrams over their queue (at asyncio's default
 * marks), the proactor over its {@link ProactorWriteQueue}, which counts the send in flight too,
 * as asyncio's proactor does.
 */
final class WriteFlowControl {
    private int highWater = Transport.DEFAULT_HIGH_WATER;
    private int lowWater = Transport.DEFAULT_LOW_WATER;
    private boolean protocolPaused;
    private final EventLoop loop;
    private final BaseTransport transport;

    WriteFlowControl(EventLoop loop, BaseTransport transport) {
        this.loop = loop;
        this.transport = transport;
    }

    /** Transport.setWriteBufferLimits: the new marks, which may pause the protocol at once. */
    void setLimits(int high, int low, long size) {
        if (!(high >= low && low >= 0)) {
            throw new IllegalArgumentException("high (" + high + ") must be >= low (" + low + ") must be >= 0");
        }
        highWater = high;
        lowWater = low;
        pauseIfAboveHigh(size);
    }

    int[] limits() {
        return new int[] {highWater, lowWater};
    }

    /** {@code size} past the high water mark: the protocol's pauseWriting, once until it is resumed. */
    void pauseIfAboveHigh(long size) {
        if (size > highWater && !protocolPaused) {
            protocolPaused = true;
            BaseProtocol protocol = transport.getProtocol();
            try {
                protocol.pauseWriting();
            } catch (Throwable t) {
                FatalErrors.callbackFailed(loop, "protocol.pause_writing() failed", t, transport, protocol);
            }
        }
    }

    /** Paused and {@code size} down to the low water mark: the protocol's resumeWriting (which may write again). */
    void resumeIfAtLow(long size) {
        if (protocolPaused && size <= lowWater) {
            protocolPaused = false;
            BaseProtocol protocol = transport.getProtocol();
            try {
                protocol.resumeWriting();
            } catch (Throwable t) {
                FatalErrors.callbackFailed(loop, "protocol.resume_writing() failed", t, transport, protocol);
            }
        }
    }
}
