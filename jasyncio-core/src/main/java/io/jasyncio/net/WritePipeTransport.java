package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.WritableByteChannel;

/**
 * The write end of a pipe as a transport (asyncio's {@code _UnixWritePipeTransport}): a
 * {@code WriteQueue} on readiness (straight into the pipe while nothing is buffered; what the pipe
 * does not take waits in heap chunks for a writer callback). Crossing the high/low water marks
 * calls the protocol's pauseWriting/resumeWriting, which is how {@link StreamWriter#drain()}
 * keeps a writer in step with a slow reader. {@link #close()} is {@link #writeEof()}: the pipe
 * closes once the buffer is written. A reader that went away shows as a failed write (EPIPE: the
 * JVM ignores SIGPIPE), which ends the transport with that error. It cannot be read.
 */
public final class WritePipeTransport extends ChannelTransport<Pipe.SinkChannel> implements Transport {
    /**
     * The most one write offers the pipe (which holds 64 KiB on Linux): the JDK copies a heap
     * buffer's whole remainder into a temporary direct buffer at every write, so handing it a
     * 10 MiB chunk 160 times over would copy 800 MB.
     */
    private static final int MAX_WRITE = 256 * 1024;

    /** asyncio's words for writes on a pipe that was lost. */
    static final String LOST_WARNING = "pipe closed by peer or os.write(pipe, data) raised exception.";

    private final WriteQueue writes;

    /** Wraps {@code channel} (made non-blocking here); {@link #start()} tells the protocol. */
    public WritePipeTransport(EventLoop loop, Pipe.SinkChannel channel, BaseProtocol protocol) throws IOException {
        channel.configureBlocking(false);
        super(loop, channel, "pipe", null, null, null);
        protocolIs(protocol);
        this.writes = WriteQueue.readiness(this, new CappedWrites(channel), new WriteBuffer());
    }

    /** Calls the protocol's connectionMade (when it is a {@link Protocol}). */
    public void start() {
        if (getProtocol() instanceof Protocol p) {
            p.connectionMade(this);
        }
    }

    /** As asyncio's pipe: once closing (or lost), a write is dropped (counted, and warned past a few, once lost). */
    @Override
    public void write(ByteBuffer data) {
        if (data.hasRemaining() && (closing || connLost > 0)) {
            if (connLost > 0) {
                dropWriteAfterConnectionLost(LOST_WARNING);
            }
            data.position(data.limit());
            return;
        }
        writes.write(data);
    }

    /** The pipe closes once the buffer is written: the same as {@link #close()}, as asyncio's write_eof. */
    @Override
    public void writeEof() {
        close();
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

    // ---- a write pipe has no read side ------------------------------------------------------

    @Override
    public void pauseReading() {
        throw new UnsupportedOperationException("the write end of a pipe cannot be read");
    }

    @Override
    public void resumeReading() {
        throw new UnsupportedOperationException("the write end of a pipe cannot be read");
    }

    @Override
    public boolean isReading() {
        return false;
    }

    /** The pipe, offered at most {@link #MAX_WRITE} bytes per write. */
    private record CappedWrites(Pipe.SinkChannel channel) implements WritableByteChannel {
        @Override
        public int write(ByteBuffer src) throws IOException {
            if (src.remaining() <= MAX_WRITE) {
                return channel.write(src);
            }
            int n = channel.write(src.slice(src.position(), MAX_WRITE));
            src.position(src.position() + n);
            return n;
        }

        @Override
        public boolean isOpen() {
            return channel.isOpen();
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    @Override
    public String toString() {
        return "<WritePipeTransport " + channel + (closing ? " closing" : "") + " bufsize=" + bufferedBytes() + ">";
    }
}
