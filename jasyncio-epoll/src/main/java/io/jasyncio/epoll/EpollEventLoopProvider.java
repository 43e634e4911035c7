package io.jasyncio.epoll;

import io.jasyncio.loop.spi.LoopBackend;
import io.jasyncio.loop.spi.LoopContract;
import io.jasyncio.nativeio.NativeLoopProvider;
import io.jasyncio.nativeio.linux.EpollSys;
import io.jasyncio.nativeio.LibC;
import io.jasyncio.nativeio.linux.EventFdSys;
import io.jasyncio.nativeio.linux.LinuxAvailability;

import java.io.IOException;

/**
 * Makes {@code EventLoops.newEventLoop("epoll")} (and {@code -Djasyncio.loop=epoll}) work: the
 * library's loop over an {@link EpollPoller} instead of a java.nio Selector (as uvloop swaps
 * asyncio's loop for libuv's), found through {@code META-INF/services}. Available on Linux when the JVM lets us read channel fds;
 * otherwise {@link #unavailableReason()} says why, and "nio" remains.
 */
public final class EpollEventLoopProvider extends NativeLoopProvider {
    private static final String UNAVAILABLE_REASON = LinuxAvailability.unavailableReason(
            "epoll", "cannot bind epoll through the FFM API: ",
            () -> { // binds the C functions now: a missing one shows here, not in a loop
                LibC.link();
                EventFdSys.link();
                EpollSys.link();
            });

    public EpollEventLoopProvider() {
        super("epoll", UNAVAILABLE_REASON);
    }

    @Override
    public LoopBackend openBackend(LoopContract loop) throws IOException {
        return LoopBackend.of(new EpollPoller());
    }
}
