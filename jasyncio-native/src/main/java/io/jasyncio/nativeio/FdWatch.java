package io.jasyncio.nativeio;

import io.jasyncio.loop.spi.IoRegistration;
import io.jasyncio.loop.spi.Poller;

import java.nio.channels.SelectableChannel;

/**
 * A native poller's registration: the channel, the fd it is watched by and the interest the
 * poller was given, kept by an {@link FdWatches}. A poller extends it with what its kernel needs
 * besides (io_uring: the poll request armed for it) and makes it in
 * {@link Poller#newRegistration}. The fd and interest change only through {@link FdWatches}.
 */
public abstract class FdWatch extends IoRegistration {
    /** {@code POLLIN} and {@code EPOLLIN}: the same bit as {@link Poller#READ}. */
    private static final int IN = 0x001;
    /** {@code POLLOUT} and {@code EPOLLOUT}: the same bit as {@link Poller#WRITE}. */
    private static final int OUT = 0x004;

    int fd = -1;
    int ops;
    boolean watched;

    /** A registration of {@code channel}, not watched yet. */
    protected FdWatch(SelectableChannel channel) {
        super(channel);
    }

    /** The fd it is watched by (kept after it stops being watched); -1 before it ever was. */
    public final int fd() {
        return fd;
    }

    /** The interest the poller was last given ({@link Poller#READ}, {@link Poller#WRITE}); kept when its channel is found closed. */
    public final int ops() {
        return ops;
    }

    /** True while its {@link FdWatches} holds it, by its fd. */
    public final boolean isWatched() {
        return watched;
    }

    /**
     * What a readiness report of {@code pollEvents} ({@code poll(2)}'s or epoll's bits) means for
     * this watch, as asyncio's selectors read it: anything but {@code POLLOUT} (errors, hang-ups)
     * wakes the reader, anything but {@code POLLIN} the writer, and only what was asked for counts.
     * 0: nothing to report.
     */
    public final int readyOps(int pollEvents) {
        int ready = ((pollEvents & ~OUT) != 0 ? Poller.READ : 0) | ((pollEvents & ~IN) != 0 ? Poller.WRITE : 0);
        return ready & ops;
    }
}
