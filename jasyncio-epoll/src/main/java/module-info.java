/**
 * The epoll loop: {@code -Djasyncio.loop=epoll} picks its provider; nothing here is called by
 * name. Reading a channel's fd needs
 * {@code --add-exports java.base/sun.nio.ch=io.jasyncio.core} on the module path (see
 * core's {@code io.jasyncio.loop.spi.ChannelFds}).
 */
module io.jasyncio.epoll {
    requires io.jasyncio.core;
    requires io.jasyncio.nativeio;

    provides io.jasyncio.loop.spi.EventLoopProvider with io.jasyncio.epoll.EpollEventLoopProvider;
}
