package io.jasyncio.uring;

import io.jasyncio.loop.spi.LoopBackend;
import io.jasyncio.loop.spi.LoopContract;
import io.jasyncio.loop.spi.ChannelFds;
import io.jasyncio.net.spi.Proactor;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.nio.channels.SocketChannel;

/**
 * The io_uring backend: the loop's one wait is an {@code io_uring_enter} on an
 * {@link IoUringPoller}, and it is a {@link Proactor} (the backend feature core's network layer asks for): core's network layer
 * then makes each stream connection a completion transport, which receives and sends through requests on the same ring
 * (asyncio's proactor shape), while {@code addReader}/{@code addWriter}, accepting and connecting
 * stay on readiness (polls on the ring).
 */
public final class IoUringBackend implements LoopBackend, Proactor {
    static {
        // Loaded now, not at the first connection: one accepted when no descriptor is left
        // could not open their class files (and the failure would stick). The transport's own
        // classes load with core's Network class.
        try {
            MethodHandles.lookup().ensureInitialized(RingOperation.class);
            MethodHandles.lookup().ensureInitialized(ProvidedBuffers.class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final IoUringPoller poller;
    private final LoopContract loop;

    /** The backend of {@code loop}, whose ring runs task work as {@code taskRun} says (or weaker, where the kernel refuses it). */
    IoUringBackend(LoopContract loop, TaskRunMode taskRun) throws IOException {
        this.poller = new IoUringPoller(taskRun);
        this.loop = loop;
    }

    @Override
    public IoUringPoller poller() {
        return poller;
    }

    @Override
    public Operation newOperation(SocketChannel channel, Runnable onCompletion) {
        return new RingOperation(poller, ChannelFds.fdOf(channel), loop, onCompletion, loop.copyCurrentContext());
    }

    @Override
    public IOException errorOf(int result) {
        return new IOException(UringSys.strerror(-result));
    }
}
