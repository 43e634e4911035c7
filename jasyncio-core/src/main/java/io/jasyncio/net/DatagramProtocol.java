package io.jasyncio.net;

import java.net.SocketAddress;
import java.nio.ByteBuffer;

/** A datagram (UDP) protocol, as asyncio's {@code DatagramProtocol}. */
public interface DatagramProtocol extends BaseProtocol {
    /** The endpoint is ready; {@code transport} is its transport. Does nothing unless overridden. */
    default void connectionMade(DatagramTransport transport) {
    }

    /**
     * One datagram from {@code address}, between {@code data}'s position and limit. The buffer is
     * reused for the next datagram: consume or copy it before returning.
     */
    default void datagramReceived(ByteBuffer data, SocketAddress address) {
    }

    /** A send or receive failed (e.g. ICMP port unreachable on a connected endpoint); the endpoint stays open. */
    default void errorReceived(Exception exc) {
    }
}
