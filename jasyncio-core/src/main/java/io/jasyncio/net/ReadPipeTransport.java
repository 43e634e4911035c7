package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.List;

/**
 * The read end of a pipe as a transport (asyncio's {@code _UnixReadPipeTransport}): readiness on
 * the loop's poller, one read per event by {@code ReadinessReads}, handed to the protocol at
 * once. {@link #pauseReading()} stops watching the pipe, so a full pipe stops its writer: that is
 * the flow control that keeps a fast writer from growing our memory. At the end of the data the
 * protocol gets {@code eofReceived} (its answer is ignored: a pipe has no other direction) and
 * then {@code connectionLost(null)}. It cannot be written: the write methods throw.
 */
public final class ReadPipeTransport extends ChannelTransport<Pipe.SourceChannel> implements Transport {
    private final ReadinessReads reads;

    /** Wraps {@code channel} (made non-blocking here); reading starts with {@link #start()}. */
    public ReadPipeTransport(EventLoop loop, Pipe.SourceChannel channel, Protocol protocol) throws IOException {
        channel.configureBlocking(false);
        super(loop, channel, "pipe", null, null, null);
        protocolIs(protocol);
        this.reads = new ReadinessReads(this, channel);
    }

    /** Calls the protocol's connectionMade now and watches the pipe from then on. */
    public void start() {
        streamProtocol.connectionMade(this);
        if (isReading()) {
            loop.addReader(channel, reads);
        }
    }

    /** The end of the data: eofReceived soon (its answer ignored), then connectionLost(null). */
    @Override
    void readEof() {
        closing = true;
        loop.removeReader(channel);
        Protocol p = streamProtocol;
        loop.callSoon(p::eofReceived);
        connLost++;
        loop.callSoon(() -> callConnectionLost(null));
    }

    @Override
    void readingResumed() {
        loop.addReader(channel, reads);
    }

    @Override
    long bufferedBytes() {
        return 0; // a read pipe holds nothing back
    }

    @Override
    void discardBufferedWrites() {
    }

    // ---- a read pipe has no write side ------------------------------------------------------

    private static UnsupportedOperationException readOnly() {
        return new UnsupportedOperationException("the read end of a pipe cannot be written");
    }

    @Override
    public void write(ByteBuffer data) {
        throw readOnly();
    }

    @Override
    public void writelines(List<byte[]> chunks) {
        throw readOnly();
    }

    @Override
    public void writeEof() {
        throw readOnly();
    }

    @Override
    public boolean canWriteEof() {
        return false;
    }

    @Override
    public void setWriteBufferLimits(int high, int low) {
        throw readOnly();
    }

    @Override
    public int[] getWriteBufferLimits() {
        return new int[] {0, 0};
    }

    @Override
    public long getWriteBufferSize() {
        return 0;
    }

    @Override
    public String toString() {
        return "<ReadPipeTransport " + channel + (closing ? " closing" : readingPaused ? " paused" : "") + ">";
    }
}
