package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * A datagram transport over a non-blocking {@link DatagramChannel}, as asyncio's
 * {@code _SelectorDatagramTransport}: each readiness event receives one datagram into the loop's
 * shared buffer; sends go out directly when nothing is queued, otherwise they queue (with the
 * same high/low water flow control as stream transports) behind a writer callback.
 *
 * <p>As asyncio, an I/O error on a send or a receive (a datagram too long, an ICMP error
 * reported on a connected endpoint, no buffer space) belongs to that one datagram: it goes to
 * {@link DatagramProtocol#errorReceived} and the endpoint stays open. Only a failing protocol
 * callback ends it.
 */
final class DatagramSocketTransport extends ChannelTransport<DatagramChannel> implements DatagramTransport {
    private final SocketAddress remote;
    private final Runnable onReadable = this::readReady;
    private final Runnable onWritable = this::writeReady;
    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    private DatagramProtocol protocol;
    private long bufferSize;

    /** Null: the channel's own send. Else what sends instead (a test's channel that refuses, say). */
    private final Sender sender;

    private record Queued(ByteBuffer data, SocketAddress address) {
    }

    /** How one datagram goes out: whole, or (0 returned) not at all, as a non-blocking channel's send. */
    @FunctionalInterface
    interface Sender {
        int send(ByteBuffer data, SocketAddress address) throws IOException;
    }

    DatagramSocketTransport(EventLoop loop, DatagramChannel channel, DatagramProtocol protocol, SocketAddress remote,
                            Future<Void> waiter) {
        this(loop, channel, protocol, remote, waiter, null);
    }

    /** {@code sender}: sends in place of the channel's own send (null: the channel's). */
    DatagramSocketTransport(EventLoop loop, DatagramChannel channel, DatagramProtocol protocol, SocketAddress remote,
                            Future<Void> waiter, Sender sender) {
        super(loop, channel, "socket", remote, SocketSetup.localAddressOrNull(channel), null);
        this.sender = sender;
        this.remote = remote;
        setProtocol(protocol);
        loop.callSoon(() -> protocol.connectionMade(this));
        loop.callSoon(() -> {
            if (!closing) {
                loop.addReader(channel, onReadable);
            }
        });
        loop.callSoon(() -> {
            if (!waiter.isDone()) {
                waiter.setResult(null);
            }
        });
    }

    private void readReady() {
        if (connLost > 0) {
            return;
        }
        ByteBuffer data = ReadBuffer.of(loop).clear();
        SocketAddress from;
        try {
            from = channel.receive(data);
        } catch (IOException e) {
            protocol.errorReceived(e);
            return;
        }
        if (from == null) {
            return;
        }
        data.flip();
        try {
            protocol.datagramReceived(data, from);
        } catch (Throwable t) {
            fatalError(t, "Fatal error: protocol.datagram_received() call failed.");
        }
    }

    @Override
    public void sendto(ByteBuffer data, SocketAddress address) {
        if (remote != null && address != null && !address.equals(remote)) {
            throw new IllegalArgumentException("Invalid address: must be None or " + remote);
        }
        if (remote == null && address == null) {
            throw new IllegalArgumentException("an unconnected endpoint needs an address to send to");
        }
        if (connLost > 0) {
            dropWriteAfterConnectionLost("socket.send() raised exception.");
            return;
        }
        if (queue.isEmpty()) {
            try {
                if (send(data, address) > 0 || !data.hasRemaining()) {
                    return;
                }
            } catch (IOException e) {
                protocol.errorReceived(e);
                return;
            }
            loop.addWriter(channel, onWritable); // no room in the kernel's buffer: queue it, send when writable
        }
        ByteBuffer copy = ByteBuffer.allocate(data.remaining()).put(data).flip();
        queue.addLast(new Queued(copy, address));
        bufferSize += copy.remaining();
        pauseProtocolIfAboveHigh();
    }

    /** Sends one datagram: whole, or (0 returned) not at all. */
    private int send(ByteBuffer data, SocketAddress address) throws IOException {
        if (sender != null) {
            return sender.send(data, address);
        }
        return remote != null ? channel.write(data) : channel.send(data, address);
    }

    private void writeReady() {
        Queued next;
        while ((next = queue.peekFirst()) != null) {
            int size = next.data.remaining();
            try {
                if (send(next.data, next.address) == 0 && size > 0) {
                    return; // still full: wait for the next writable event
                }
            } catch (IOException e) {
                queue.pollFirst(); // that datagram is dropped, as asyncio: the rest are sent when writable
                bufferSize -= size;
                protocol.errorReceived(e);
                return;
            }
            queue.pollFirst();
            bufferSize -= size;
        }
        resumeProtocolIfAtLow();
        loop.removeWriter(channel);
        if (closing) {
            callConnectionLost(null);
        }
    }

    @Override
    boolean hasBufferedWrites() {
        return !queue.isEmpty(); // an empty datagram queued behind others counts too
    }

    @Override
    long bufferedBytes() {
        return bufferSize;
    }

    @Override
    void discardBufferedWrites() {
        queue.clear();
        bufferSize = 0;
    }

    @Override
    public void setProtocol(BaseProtocol protocol) {
        Objects.requireNonNull(protocol, "protocol");
        if (!(protocol instanceof DatagramProtocol datagram)) {
            throw new IllegalArgumentException("a datagram transport needs a DatagramProtocol, not " + protocol);
        }
        protocolIs(datagram);
        this.protocol = datagram;
    }

    @Override
    public String toString() {
        return "<DatagramSocketTransport local=" + sockname + (closing ? " closing" : "") + ">";
    }
}
