package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectableChannel;

/**
 * A transport over a socket (stream or datagram), as asyncio's {@code _SelectorTransport}: the
 * channel and its addresses as extra info, on top of what every transport shares
 * ({@link ChannelTransport}: closing, the way down, write flow control, the unclosed tracking).
 */
abstract class SelectorTransport<C extends SelectableChannel & NetworkChannel> extends ChannelTransport<C> {
    /** The addresses at the start (null if unknown or, for peername, unconnected). */
    final Object peername;
    final Object sockname;

    SelectorTransport(EventLoop loop, C channel, Object peername) {
        this(loop, channel, peername, null);
    }

    /** {@code server}: the server that accepted the connection, or null. */
    SelectorTransport(EventLoop loop, C channel, Object peername, Server server) {
        this.peername = peername;
        this.sockname = localAddressOrNull(channel); // before super(): the unclosed tracker's description names both
        super(loop, channel, server);
    }

    private static Object localAddressOrNull(NetworkChannel channel) {
        try {
            return channel.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    String describe() {
        return "<" + getClass().getSimpleName() + " peer=" + peername + " local=" + sockname + ">";
    }

    /** A write after the connection was lost: dropped, with asyncio's warning past a few. */
    final void dropWriteAfterConnectionLost() {
        dropWriteAfterConnectionLost("socket.send() raised exception.");
    }

    @Override
    public Object getExtraInfo(String name) {
        return switch (name) {
            case "peername" -> peername;
            case "sockname" -> sockname;
            case "socket" -> channel;
            default -> null;
        };
    }
}
