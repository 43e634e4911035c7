/**
 * What the native loops share: the FFM binding of libc ({@code Downcalls}, {@code LibC}), the fd
 * behind a JDK channel ({@code ChannelFds}), the fd table and the eventfd wake-up. Reading a
 * channel's fd needs {@code --add-exports java.base/sun.nio.ch=io.jasyncio.nativeio} on the
 * module path.
 */
@SuppressWarnings("module") // the qualified export names modules built after this one
module io.jasyncio.nativeio {
    requires io.jasyncio.core;

    exports io.jasyncio.nativeio to io.jasyncio.epoll, io.jasyncio.uring;
}
