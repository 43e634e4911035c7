package io.jasyncio.uring;

import io.jasyncio.nativeio.NativeLoopProvider;
import io.jasyncio.nativeio.linux.LinuxAvailability;
import io.jasyncio.loop.spi.LoopBackend;
import io.jasyncio.loop.spi.LoopContract;

import java.io.IOException;

/**
 * Makes {@code EventLoops.newEventLoop("io_uring")} (and {@code -Djasyncio.loop=io_uring}) work:
 * found through {@code META-INF/services}. Available on Linux when the kernel lets this process
 * set up a ring (io_uring can be disabled by sysctl or a seccomp profile) and the JVM lets us
 * read channel fds; otherwise {@link #unavailableReason()} says which.
 */
public final class IoUringEventLoopProvider extends NativeLoopProvider {
    /** How rings run task work; null: as {@code -Djasyncio.uring.taskrun} says when each loop is made. */
    private final TaskRunMode taskRun;

    /** The provider the service lookup finds. */
    public IoUringEventLoopProvider() {
        this(null);
    }

    /** A provider whose rings run task work as {@code taskRun} says (or weaker, where the kernel refuses it). */
    IoUringEventLoopProvider(TaskRunMode taskRun) {
        super("io_uring", UNAVAILABLE_REASON);
        this.taskRun = taskRun;
    }

    private static final String UNAVAILABLE_REASON = LinuxAvailability.unavailableReason(
            "io_uring", "cannot set up an io_uring here: ", () -> {
                UringSys.link();
                new IoUring(2).close(); // the kernel may refuse rings (sysctl io_uring_disabled, seccomp)
            });

    @Override
    public LoopBackend openBackend(LoopContract loop) throws IOException {
        return new IoUringBackend(loop, taskRun != null ? taskRun : TaskRunMode.configured());
    }
}
