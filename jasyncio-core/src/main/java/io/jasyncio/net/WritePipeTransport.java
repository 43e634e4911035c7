package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.WritableByteChannel;

/**
 * The write end of a pipe as a transport (asyncio's {@code _UnixWritePipeTransport}): a write goes
 * straight into the pipe while nothing is buffered; what the pipe does not take waits in the
 * buffer for a writer callback on the loop's poller. Crossing the high/low water marks calls the
 * protocol's pauseWriting/resumeWriting, which is how {@link StreamWriter#drain()} keeps a
 * writer in step with a slow reader. {@link #close()} is {@link #writeEof()}: the pipe closes
 * once the buffer is written. A reader that went away shows as a failed write (EPIPE: the JVM
 * ignores SIGPIPE), which ends the transport with that error. It cannot be read.
 */
public final class WritePipeTransport extends PipeTransport<Pipe.SinkChannel> {
    /**
     * The most one write offers the pipe (which holds 64 KiB on Linux): the JDK copies a heap
     * buffer's whole remainder into a temporary direct buffer at every write, so handing it a
     * 10 MiB chunk 160 times over would copy 800 MB.
     */
    private static final int MAX_WRITE = 256 * 1024;

    private final Runnable onWritable = this::writeReady;
    private final WritableByteChannel cappedWrites = new CappedWrites();
    private final WriteBuffer buffer = new WriteBuffer();

    /** Wraps {@code channel} (made non-blocking here); {@link #start()} tells the protocol. */
    public WritePipeTransport(EventLoop loop, Pipe.SinkChannel channel, BaseProtocol protocol) throws IOException {
        super(loop, channel, protocol);
    }

    /** Calls the protocol's connectionMade (when it is a {@link Protocol}). */
    public void start() {
        if (protocol instanceof Protocol p) {
            p.connectionMade(this);
        }
    }

    @Override
    public void write(ByteBuffer data) {
        if (!data.hasRemaining()) {
            return;
        }
        if (connLost > 0 || closing) { // dropped; counted (and warned past a few) once the pipe is lost
            if (connLost > 0) {
                dropWriteAfterConnectionLost("pipe closed by peer or os.write(pipe, data) raised exception.");
            }
            data.position(data.limit());
            return;
        }
        if (buffer.isEmpty()) {
            try {
                cappedWrites.write(data);
            } catch (IOException e) {
                fatalError(e, "Fatal write error on pipe transport");
                return;
            }
            if (!data.hasRemaining()) {
                return;
            }
            loop.addWriter(channel, onWritable);
        }
        buffer.append(data);
        pauseProtocolIfAboveHigh();
    }

    private void writeReady() {
        try {
            buffer.flushTo(cappedWrites);
        } catch (IOException e) {
            fatalError(e, "Fatal write error on pipe transport");
            return;
        }
        if (buffer.isEmpty()) {
            loop.removeWriter(channel);
            resumeProtocolIfAtLow(); // the protocol may write again here, and close
            if (buffer.isEmpty() && closing && connLost == 0) {
                writesDrainedWhileClosing();
            }
            return;
        }
        resumeProtocolIfAtLow();
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
        return buffer.size();
    }

    @Override
    void discardBufferedWrites() {
        buffer.clear();
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

    /** Our channel, offered at most {@link #MAX_WRITE} bytes per write. */
    private final class CappedWrites implements WritableByteChannel {
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
        return "<WritePipeTransport " + channel + (closing ? " closing" : "") + " bufsize=" + buffer.size() + ">";
    }
}
