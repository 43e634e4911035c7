package io.jasyncio.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;

/**
 * How a transport reads on readiness (asyncio's {@code _SelectorSocketTransport._read_ready} and
 * {@code _UnixReadPipeTransport._read_ready}): it is the reader callback the loop runs when the
 * channel is readable, and each run is one read, handed to the transport's protocol at once:
 * into the loop's shared buffer ({@link ReadBuffer}), into the room a {@link LendingProtocol}
 * lends (a {@link StreamReader} of bulk data: no copy), or into a {@link BufferedProtocol}'s own
 * buffer. The end of the stream goes to the transport's {@link ChannelTransport#readEof()}.
 */
final class ReadinessReads implements Runnable {
    private final ChannelTransport<?> transport;
    private final ReadableByteChannel channel;
    /** The loop's, shared (see ReadBuffer): taken with the transport, not at the first read (see ChannelTransport). */
    private final ByteBuffer loopBuffer;
    ReadinessReads(ChannelTransport<?> transport, ReadableByteChannel channel) {
        this.transport = transport;
        this.channel = channel;
        this.loopBuffer = ReadBuffer.of(transport.loop);
    }

    /** The channel is readable: one read. */
    @Override
    public void run() {
        if (transport.connLost > 0) {
            return;
        }
        if (transport.bufferedProtocol != null) {
            readIntoProtocolBuffer(transport.bufferedProtocol);
        } else {
            readIntoLoopBuffer();
        }
    }

    private void readIntoLoopBuffer() {
        LendingProtocol lender = transport.lender();
        ByteBuffer room = lender == null ? null : lender.lendRoom();
        if (room != null) {
            readIntoLentRoom(lender, room);
            return;
        }
        ByteBuffer data = loopBuffer.clear();
        if (readFromChannel(data) == 0) {
            return;
        }
        data.flip();
        try {
            transport.streamProtocol.dataReceived(data);
        } catch (Throwable t) {
            transport.fatalError(t, "Fatal error: protocol.data_received() call failed.");
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
            transport.fatalError(t, "Fatal error: protocol.data_received() call failed.");
        }
    }

    private void readIntoProtocolBuffer(BufferedProtocol protocol) {
        ByteBuffer target;
        try {
            target = protocol.getBuffer(-1);
            if (target == null || !target.hasRemaining()) {
                throw new IllegalStateException("get_buffer() returned an empty buffer");
            }
        } catch (Throwable t) {
            transport.fatalError(t, "Fatal error: protocol.get_buffer() call failed.");
            return;
        }
        int n = readFromChannel(target);
        if (n == 0) {
            return;
        }
        try {
            protocol.bufferUpdated(n);
        } catch (Throwable t) {
            transport.fatalError(t, "Fatal error: protocol.buffer_updated() call failed.");
        }
    }

    /**
     * One read into {@code target}, shared by every read path. Returns how many bytes arrived, or
     * 0 when there is nothing to hand the protocol: no bytes yet, or EOF or a read error, both
     * dealt with here.
     */
    private int readFromChannel(ByteBuffer target) {
        int n;
        try {
            n = channel.read(target);
        } catch (IOException e) {
            transport.fatalError(e, channel instanceof SocketChannel ? "Fatal read error on socket transport"
                    : "Fatal read error on pipe transport");
            return 0;
        }
        if (n < 0) {
            transport.readEof();
            return 0;
        }
        return n;
    }
}
