package io.jasyncio.uring;

import io.jasyncio.nativeio.ChannelFds;
import io.jasyncio.loop.BaseEventLoop;
import io.jasyncio.net.Proactor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.nio.channels.SocketChannel;

/**
 * The io_uring loop: the same {@link BaseEventLoop} (ready queue, timer heap, semantics) whose one
 * wait is an {@code io_uring_enter} on an {@link IoUringPoller}, and a {@link Proactor}: its
 * stream transports receive and send through requests on the same ring (asyncio's proactor
 * shape), while {@code addReader}/{@code addWriter}, accepting and connecting stay on readiness
 * (polls on the ring).
 */
public final class IoUringEventLoop extends BaseEventLoop implements Proactor {
    static {
        // Loaded now, not at the first connection: one accepted when no descriptor is left
        // could not open their class files (and the failure would stick).
        Proactor.loadTransportClasses();
        try {
            MethodHandles.lookup().ensureInitialized(RingOperation.class);
            MethodHandles.lookup().ensureInitialized(ProvidedBuffers.class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public IoUringEventLoop() {
        this(TaskRunMode.configured());
    }

    /** A loop whose ring runs task work as {@code taskRun} says (or weaker, where the kernel refuses it). */
    IoUringEventLoop(TaskRunMode taskRun) {
        super(openPoller(taskRun));
    }

    private static IoUringPoller openPoller(TaskRunMode taskRun) {
        try {
            return new IoUringPoller(taskRun);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open an io_uring poller", e);
        }
    }

    /** The io_uring poller under this loop. */
    public IoUringPoller uringPoller() {
        return (IoUringPoller) poller();
    }

    @Override
    public Operation newOperation(SocketChannel channel, Runnable onCompletion) {
        return new RingOperation(uringPoller(), ChannelFds.fdOf(channel), this, onCompletion, copyCurrentContext());
    }

    @Override
    public IOException errorOf(int result) {
        return new IOException(UringSys.strerror(-result));
    }
}
