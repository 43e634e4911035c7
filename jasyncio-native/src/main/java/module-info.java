/**
 * The native backend kit, what any native backend (this repository's or another's) builds on.
 * {@code io.jasyncio.nativeio}, neutral: FFM downcalls with errno capture ({@code Downcalls}), the
 * POSIX calls ({@code LibC}), a poller's watched channels by fd ({@code FdWatch}, {@code FdWatches}
 * over {@code FdTable}: the interest-change rules every native poller shares); the fd behind a JDK channel is
 * core's {@code io.jasyncio.loop.spi.ChannelFds} (one copy, which core's child processes use too:
 * it needs {@code --add-exports java.base/sun.nio.ch=io.jasyncio.core} on the module path).
 * {@code io.jasyncio.nativeio.linux}, Linux only: epoll ({@code EpollSys}), eventfd
 * ({@code EventFdSys}, {@code EventFdWakeup}) and {@code LinuxAvailability}. Both are exported to
 * every module: a backend outside this repository gets what epoll and io_uring get.
 */
module io.jasyncio.nativeio {
    requires transitive io.jasyncio.core;

    exports io.jasyncio.nativeio;
    exports io.jasyncio.nativeio.linux;
}
