package io.jasyncio.net;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SocketChannel;

/** What a socket transport does to its socket when it is made: its addresses, read once, and TCP's Nagle off. */
final class SocketSetup {
    private SocketSetup() {
    }

    /** The peer's address, or null (unknown, or not connected). */
    static Object remoteAddressOrNull(SocketChannel channel) {
        try {
            return channel.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
    }

    /** The local address, or null if unknown. */
    static Object localAddressOrNull(NetworkChannel channel) {
        try {
            return channel.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    /** As asyncio: TCP connections do not wait to coalesce small writes (Nagle off). */
    static void setNoDelay(SocketChannel channel) {
        try {
            if (channel.supportedOptions().contains(StandardSocketOptions.TCP_NODELAY)) {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
        } catch (IOException ignored) {
            // not fatal: the connection works, only small writes may wait
        }
    }
}
