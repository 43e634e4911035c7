/**
 * The epoll loop: {@code -Djasyncio.loop=epoll} picks its provider; nothing here is called by
 * name. Reading a channel's fd needs {@code --add-exports java.base/sun.nio.ch=io.jasyncio.epoll}
 * on the module path (see {@code ChannelFds}).
 */
module io.jasyncio.epoll {
    requires io.jasyncio.core;

    // ChannelFds, the eventfd wake-up and the Linux check, shared with the io_uring loop
    exports io.jasyncio.epoll to io.jasyncio.uring;

    provides io.jasyncio.loop.EventLoopProvider with io.jasyncio.epoll.EpollEventLoopProvider;
}
