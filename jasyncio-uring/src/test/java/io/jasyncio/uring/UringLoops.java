package io.jasyncio.uring;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.spi.LoopContract;

/** The io_uring module's tests make their loops here and reach the poller under them. */
final class UringLoops {
    private UringLoops() {
    }

    /** A new loop over a ring that runs task work as {@code mode} says (or weaker, where the kernel refuses it). */
    static EventLoop newLoop(TaskRunMode mode) {
        return EventLoops.newEventLoop(new IoUringEventLoopProvider(mode));
    }

    /** The io_uring poller under {@code loop}. */
    static IoUringPoller pollerOf(EventLoop loop) {
        IoUringPoller poller = LoopContract.of(loop).backendFeature(IoUringPoller.class);
        if (poller == null) {
            throw new IllegalArgumentException(loop + " is not an io_uring loop");
        }
        return poller;
    }
}
