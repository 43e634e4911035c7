package io.jasyncio.epoll;

import io.jasyncio.loop.BaseEventLoop;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The native loop: the same {@link BaseEventLoop} (same ready queue, timers, semantics) over an
 * {@link EpollPoller} instead of a java.nio Selector, as uvloop swaps asyncio's loop for libuv's.
 */
public final class EpollEventLoop extends BaseEventLoop {
    public EpollEventLoop() {
        super(openPoller());
    }

    private static EpollPoller openPoller() {
        try {
            return new EpollPoller();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open an epoll poller", e);
        }
    }

    /** The epoll poller under this loop. */
    public EpollPoller epollPoller() {
        return (EpollPoller) poller();
    }
}
