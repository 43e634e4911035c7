package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.nio.channels.SelectableChannel;

/**
 * What the two pipe transports share (asyncio's {@code _UnixReadPipeTransport} and
 * {@code _UnixWritePipeTransport} each repeat it): the pipe channel, made non-blocking, its
 * protocol, and the pipe as extra info, on top of what every transport shares
 * ({@link ChannelTransport}: closing, the way down, write flow control, the unclosed tracking).
 */
abstract class PipeTransport<C extends SelectableChannel> extends ChannelTransport<C> implements Transport {
    BaseProtocol protocol;

    PipeTransport(EventLoop loop, C channel, BaseProtocol protocol) throws IOException {
        channel.configureBlocking(false);
        super(loop, channel, null);
        this.protocol = protocol;
    }

    @Override
    public Object getExtraInfo(String name) {
        return "pipe".equals(name) ? channel : null;
    }

    @Override
    public BaseProtocol getProtocol() {
        return protocol;
    }

    @Override
    public void setProtocol(BaseProtocol protocol) {
        this.protocol = protocol;
    }
}
