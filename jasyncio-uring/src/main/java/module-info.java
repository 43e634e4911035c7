/**
 * The io_uring loop: {@code -Djasyncio.loop=io_uring} picks its provider; nothing here is called
 * by name. It reads channel fds through jasyncio-native, as the epoll loop does, so it needs the
 * same flag: {@code --add-exports java.base/sun.nio.ch=io.jasyncio.core}.
 */
module io.jasyncio.uring {
    requires io.jasyncio.core;
    requires io.jasyncio.nativeio;

    provides io.jasyncio.loop.spi.EventLoopProvider with io.jasyncio.uring.IoUringEventLoopProvider;
}
