package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A stream transport over a connected, non-blocking {@link SocketChannel} (TCP or Unix domain),
 * driven by the loop's own reader and writer callbacks, as asyncio's
 * {@code _SelectorSocketTransport}: reads by {@link ReadinessReads} (one read per readable
 * event, into the loop's shared buffer, a lending reader's room or a {@link BufferedProtocol}'s
 * buffer), writes by a {@link WriteQueue} on readiness (the socket first; what it does not take
 * waits in the loop's reusable direct chunks for a writer callback).
 */
final class SocketTransport extends ChannelTransport<SocketChannel> implements Transport {
    private final ReadinessReads reads;
    private final WriteQueue writes;

    /**
     * Wraps {@code channel} and starts it as asyncio does ({@link #startSoon}); {@code waiter} (may
     * be null) gets its result once the protocol knows the connection; {@code server}: the server
     * that accepted it, or null.
     */
    SocketTransport(EventLoop loop, SocketChannel channel, BaseProtocol protocol, Future<Void> waiter, Server server) {
        super(loop, channel, "socket", SocketSetup.remoteAddressOrNull(channel), SocketSetup.localAddressOrNull(channel), server);
        SocketSetup.setNoDelay(channel);
        this.reads = new ReadinessReads(this, channel);
        this.writes = WriteQueue.readiness(this, channel, new WriteBuffer(DirectChunks.of(loop)));
        setProtocol(protocol);
        startSoon(this, this::startReading, waiter);
    }

    private void startReading() {
        loop.addReader(channel, reads);
    }

    @Override
    void readingResumed() {
        startReading();
    }

    @Override
    void halfClosed() {
        loop.removeReader(channel);
    }

    @Override
    public void write(ByteBuffer data) {
        writes.write(data);
    }

    @Override
    public void writeEof() {
        writes.writeEof();
    }

    @Override
    public boolean canWriteEof() {
        return true;
    }

    @Override
    long bufferedBytes() {
        return writes.size();
    }

    @Override
    void discardBufferedWrites() {
        writes.discard();
    }

    /** The channel under this transport. */
    public SocketChannel channel() {
        return channel;
    }

    @Override
    public String toString() {
        return "<SocketTransport " + state() + " peer=" + peername + " bufsize=" + bufferedBytes() + ">";
    }
}
