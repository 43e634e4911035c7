package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.List;

/**
 * The read end of a pipe as a transport (asyncio's {@code _UnixReadPipeTransport}): readiness on
 * the loop's poller, one read into the loop's shared buffer per event, handed to the protocol at
 * once. {@link #pauseReading()} stops watching the pipe, so a full pipe stops its writer: that is
 * the flow control that keeps a fast writer from growing our memory. At the end of the data the
 * protocol gets {@code eofReceived} (its answer is ignored: a pipe has no other direction) and
 * then {@code connectionLost(null)}. It cannot be written: the write methods throw.
 */
public final class ReadPipeTransport extends PipeTransport<Pipe.SourceChannel> {
    private final ByteBuffer readBuffer;
    private final Runnable onReadable = this::readReady;
    private boolean paused;

    /** Wraps {@code channel} (made non-blocking here); reading starts with {@link #start()}. */
    public ReadPipeTransport(EventLoop loop, Pipe.SourceChannel channel, Protocol protocol) throws IOException {
        super(loop, channel, protocol);
        this.readBuffer = ReadBuffer.of(loop);
    }

    /** Calls the protocol's connectionMade now and watches the pipe from then on. */
    public void start() {
        streamProtocol().connectionMade(this);
        if (!paused && !closing) {
            loop.addReader(channel, onReadable);
        }
    }

    private void readReady() {
        ByteBuffer data = readBuffer.clear();
        int n;
        try {
            n = channel.read(data);
        } catch (IOException e) {
            fatalError(e, "Fatal read error on pipe transport");
            return;
        }
        if (n > 0) {
            data.flip();
            try {
                streamProtocol().dataReceived(data);
            } catch (Throwable t) {
                fatalError(t, "Fatal error: protocol.data_received() call failed.");
            }
        } else if (n < 0) {
            closing = true;
            loop.removeReader(channel);
            Protocol p = streamProtocol();
            loop.callSoon(p::eofReceived);
            connLost++;
            loop.callSoon(() -> callConnectionLost(null));
        }
    }

    @Override
    public void pauseReading() {
        if (closing || paused) {
            return;
        }
        paused = true;
        loop.removeReader(channel);
    }

    @Override
    public void resumeReading() {
        if (closing || !paused) {
            return;
        }
        paused = false;
        loop.addReader(channel, onReadable);
    }

    @Override
    public boolean isReading() {
        return !paused && !closing;
    }

    @Override
    long bufferedBytes() {
        return 0; // a read pipe holds nothing back
    }

    @Override
    void discardBufferedWrites() {
    }

    private Protocol streamProtocol() {
        return (Protocol) protocol;
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
        return "<ReadPipeTransport " + channel + (closing ? " closing" : paused ? " paused" : "") + ">";
    }
}
