package io.jasyncio.net;

import java.net.SocketAddress;
import java.nio.ByteBuffer;

/** A datagram transport (asyncio's {@code DatagramTransport}). */
public interface DatagramTransport extends BaseTransport {
    /**
     * Sends one datagram (the bytes between position and limit) to {@code address}, or to the
     * connected peer when {@code address} is null. Never blocks: a datagram the socket cannot take
     * now is queued.
     */
    void sendto(ByteBuffer data, SocketAddress address);

    /** Sends {@code data} as one datagram to {@code address}. */
    default void sendto(byte[] data, SocketAddress address) {
        sendto(ByteBuffer.wrap(data), address);
    }

    /** Sends {@code data} as one datagram to the connected peer. */
    default void sendto(byte[] data) {
        sendto(ByteBuffer.wrap(data), null);
    }

    /** Closes at once, dropping queued datagrams. */
    void abort();

    /** Bytes queued but not yet sent. */
    long getWriteBufferSize();
}
