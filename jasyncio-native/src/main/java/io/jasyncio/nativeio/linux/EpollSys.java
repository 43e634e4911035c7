package io.jasyncio.nativeio.linux;

import io.jasyncio.nativeio.Downcalls;
import io.jasyncio.nativeio.Downcalls.Errno;
import io.jasyncio.nativeio.LibC;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import static io.jasyncio.nativeio.Downcalls.bind;
import static io.jasyncio.nativeio.Downcalls.linkageFailure;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The epoll(7) functions, bound once as FFM downcall handles ({@link Downcalls}): the epoll
 * loop's whole poller, and the io_uring loop's listeners (an epoll instance the ring polls,
 * because epoll holds no reference to a watched file). The other libc calls are {@link LibC}'s.
 * Calls that can fail take a per-caller {@link Errno} segment first.
 *
 * <p>Each wrapper returns the C result unchanged (negative on failure); callers decide which
 * errno values are expected.
 */
public final class EpollSys {
    private EpollSys() {
    }

    /** epoll_create1's flag: close the epoll fd on exec. */
    public static final int EPOLL_CLOEXEC = 0x80000;
    /** epoll_ctl's operation: watch a new fd. */
    public static final int EPOLL_CTL_ADD = 1;
    /** epoll_ctl's operation: stop watching an fd. */
    public static final int EPOLL_CTL_DEL = 2;
    /** epoll_ctl's operation: change the events watched on an fd. */
    public static final int EPOLL_CTL_MOD = 3;
    /** Event bit: the fd is readable. */
    public static final int EPOLLIN = 0x001;
    /** Event bit: the fd is writable. */
    public static final int EPOLLOUT = 0x004;
    /** Event bit: edge-triggered. */
    public static final int EPOLLET = 1 << 31;

    /**
     * {@code struct epoll_event} is {@code {uint32_t events; uint64_t data;}}, packed on x86-64
     * (12 bytes) and naturally aligned elsewhere (16 bytes). We keep the fd in the low half of data.
     */
    public static final boolean PACKED_EPOLL_EVENT = isX86_64();
    /** The size of one {@code struct epoll_event} on this machine. */
    public static final long EPOLL_EVENT_SIZE = PACKED_EPOLL_EVENT ? 12 : 16;
    /** Where an epoll_event's data field starts. */
    public static final long EPOLL_EVENT_DATA_OFFSET = PACKED_EPOLL_EVENT ? 4 : 8;
    /** An int field of an epoll_event: packed structs leave the data half unaligned. */
    public static final ValueLayout.OfInt EVENT_INT = JAVA_INT.withByteAlignment(1);

    private static final Linker.Option ERRNO_OPTION = Downcalls.CAPTURE_ERRNO;

    private static final MethodHandle EPOLL_CREATE1 = bind("epoll_create1", FunctionDescriptor.of(JAVA_INT, JAVA_INT), ERRNO_OPTION);
    private static final MethodHandle EPOLL_CTL = bind("epoll_ctl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS), ERRNO_OPTION);
    private static final MethodHandle EPOLL_WAIT = bind("epoll_wait",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), ERRNO_OPTION);
    /**
     * epoll_wait for a zero timeout only: a "critical" downcall skips the thread-state transitions,
     * safe because it never blocks (measured ~5% off a poll; never use it for a real wait, it
     * would hold up the GC).
     */
    private static final MethodHandle EPOLL_POLL = bind("epoll_wait",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), ERRNO_OPTION, Linker.Option.critical(false));

    /** Does nothing but run this class's initializer, which binds every function. */
    public static void link() {
    }

    private static boolean isX86_64() {
        String arch = System.getProperty("os.arch", "");
        return arch.equals("amd64") || arch.equals("x86_64");
    }

    /** epoll_create1(2): a new epoll fd, or a negative value (errno in {@code errno}). */
    public static int epollCreate1(Errno errno, int flags) {
        try {
            return (int) EPOLL_CREATE1.invokeExact(errno.segment, flags);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /** epoll_ctl(2): adds, changes or removes {@code fd}'s interest; negative on failure. */
    public static int epollCtl(Errno errno, int epfd, int op, int fd, MemorySegment event) {
        try {
            return (int) EPOLL_CTL.invokeExact(errno.segment, epfd, op, fd, event);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /** epoll_wait(2): waits up to {@code timeoutMillis} (-1: until an event); the number of events, or negative. */
    public static int epollWait(Errno errno, int epfd, MemorySegment events, int maxEvents, int timeoutMillis) {
        try {
            return (int) EPOLL_WAIT.invokeExact(errno.segment, epfd, events, maxEvents, timeoutMillis);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /** epoll_wait with a zero timeout, as a critical (non-blocking) downcall. */
    public static int epollPoll(Errno errno, int epfd, MemorySegment events, int maxEvents) {
        try {
            return (int) EPOLL_POLL.invokeExact(errno.segment, epfd, events, maxEvents, 0);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

}
