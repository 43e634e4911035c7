package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A stream transport over a connected, non-blocking {@link SocketChannel} (TCP or Unix domain),
 * driven by the loop's own reader and writer callbacks, as asyncio's
 * {@code _SelectorSocketTransport}.
 *
 * <p>Reads: on readiness, one read into the loop's shared buffer (or into the protocol's own
 * buffer for a {@link BufferedProtocol}, or straight into a {@link StreamReader}'s buffer once it
 * holds bulk data), handed to the protocol at once. Writes: when nothing is
 * buffered the socket is written directly; only what remains is buffered and a writer callback
 * registered, which is removed again when the buffer drains. Crossing the high/low water marks
 * calls the protocol's pauseWriting/resumeWriting.
 */
final class SocketTransport extends StreamSocketTransport {
    // Made with the transport, not at the first read or the first backlog: then the process may be
    // out of descriptors, and a class (ReadBuffer, a lambda's) could not be loaded.
    private final Runnable onReadable = this::readReady;
    private final Runnable onWritable = this::writeReady;
    private final ByteBuffer readBuffer;     // the loop's, shared (see ReadBuffer)
    private final WriteBuffer buffer = new WriteBuffer(DirectChunks.of(loop)); // loop: set by the super constructor

    /** Wraps {@code channel} and starts it as asyncio does (see {@link StreamSocketTransport}). */
    SocketTransport(EventLoop loop, SocketChannel channel, BaseProtocol protocol, Future<Void> waiter, Server server) {
        super(loop, channel, protocol, waiter, server);
        this.readBuffer = ReadBuffer.of(loop);
    }

    @Override
    void startReading() {
        loop.addReader(channel, onReadable);
    }

    // ---- reading ----------------------------------------------------------------------------

    private void readReady() {
        if (connLost > 0) {
            return;
        }
        if (bufferedProtocol != null) {
            readIntoProtocolBuffer();
        } else {
            readIntoLoopBuffer();
        }
    }

    private void readIntoLoopBuffer() {
        LendingProtocol lender = lender();
        ByteBuffer room = lender == null ? null : lender.lendRoom();
        if (room != null) {
            readIntoLentRoom(lender, room);
            return;
        }
        ByteBuffer data = readBuffer.clear();
        if (readFromChannel(data) == 0) {
            return;
        }
        data.flip();
        try {
            streamProtocol.dataReceived(data);
        } catch (Throwable t) {
            fatalError(t, "Fatal error: protocol.data_received() call failed.");
        }
    }

    /** A protocol that lends room (a StreamReader of bulk data): the read lands there, not copied there. */
    private void readIntoLentRoom(LendingProtocol lender, ByteBuffer room) {
        int n = readFromChannel(room);
        try {
            if (n == 0) {
                lender.lentRoomReturned(room);
            } else {
                lender.lentRoomFilled(room, n);
            }
        } catch (Throwable t) {
            fatalError(t, "Fatal error: protocol.data_received() call failed.");
        }
    }

    private void readIntoProtocolBuffer() {
        ByteBuffer target;
        try {
            target = bufferedProtocol.getBuffer(-1);
            if (target == null || !target.hasRemaining()) {
                throw new IllegalStateException("get_buffer() returned an empty buffer");
            }
        } catch (Throwable t) {
            fatalError(t, "Fatal error: protocol.get_buffer() call failed.");
            return;
        }
        int n = readFromChannel(target);
        if (n == 0) {
            return;
        }
        try {
            bufferedProtocol.bufferUpdated(n);
        } catch (Throwable t) {
            fatalError(t, "Fatal error: protocol.buffer_updated() call failed.");
        }
    }

    /**
     * One read into {@code target}, shared by both read paths. Returns how many bytes arrived, or 0
     * when there is nothing to hand the protocol: no bytes yet, or EOF or a read error, both dealt
     * with here.
     */
    private int readFromChannel(ByteBuffer target) {
        int n;
        try {
            n = channel.read(target);
        } catch (IOException e) {
            fatalError(e, "Fatal read error on socket transport");
            return 0;
        }
        if (n < 0) {
            readEof();
            return 0;
        }
        return n;
    }

    @Override
    void halfClosed() {
        loop.removeReader(channel);
    }

    @Override
    void readingResumed() {
        loop.addReader(channel, onReadable);
    }

    // ---- writing ----------------------------------------------------------------------------

    @Override
    public void write(ByteBuffer data) {
        if (eof) {
            throw new IllegalStateException("Cannot call write() after write_eof()");
        }
        if (!data.hasRemaining()) {
            return;
        }
        if (connLost > 0) {
            dropWriteAfterConnectionLost();
            return;
        }
        if (buffer.isEmpty()) {
            try {
                channel.write(data);            // try the socket first, as asyncio does
            } catch (IOException e) {
                fatalError(e, "Fatal write error on socket transport");
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
        if (connLost > 0) {
            return;
        }
        try {
            buffer.flushTo(channel);
        } catch (IOException e) {
            loop.removeWriter(channel);
            buffer.clear();
            fatalError(e, "Fatal write error on socket transport");
            return;
        }
        resumeProtocolIfAtLow(); // may write more: look at the buffer only after it
        if (!buffer.isEmpty()) {
            return;
        }
        loop.removeWriter(channel);
        if (closing) {
            writesDrainedWhileClosing();
        } else if (eof) {
            shutdownOutput();
        }
    }

    @Override
    void shutdownOutput() {
        try {
            channel.shutdownOutput();
        } catch (IOException e) {
            fatalError(e, "Fatal error on shutdown of the write side");
        }
    }

    @Override
    long bufferedBytes() {
        return buffer.size();
    }

    @Override
    void discardBufferedWrites() {
        buffer.clear();
    }

    // ---- the rest ---------------------------------------------------------------------------

    /** The channel under this transport. */
    public SocketChannel channel() {
        return channel;
    }

    @Override
    public String toString() {
        return "<SocketTransport " + state() + " peer=" + peername + " bufsize=" + buffer.size() + ">";
    }
}
