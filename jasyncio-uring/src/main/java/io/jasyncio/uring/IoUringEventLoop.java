package io.jasyncio.uring;

import io.jasyncio.loop.BaseEventLoop;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The io_uring loop: the same {@link BaseEventLoop} (ready queue, timer heap, semantics) whose one
 * wait is an {@code io_uring_enter} on an {@link IoUringPoller}.
 */
public final class IoUringEventLoop extends BaseEventLoop {
    public IoUringEventLoop() {
        super(openPoller());
    }

    private static IoUringPoller openPoller() {
        try {
            return new IoUringPoller();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open an io_uring poller", e);
        }
    }

    /** The io_uring poller under this loop. */
    public IoUringPoller uringPoller() {
        return (IoUringPoller) poller();
    }
}
