package io.jasyncio.poll;

import io.jasyncio.nativeio.Downcalls;
import io.jasyncio.nativeio.Downcalls.Errno;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * poll(2) and read(2), bound with the kit's {@link Downcalls}: what this backend needs beyond the
 * kit's own calls. A {@code struct pollfd} is 8 bytes: {@code int fd; short events; short revents}.
 */
final class PollSys {
    static final int POLLIN = 0x001;
    static final int POLLOUT = 0x004;
    static final int POLLNVAL = 0x020;
    static final long POLLFD_SIZE = 8;
    static final long EVENTS_OFFSET = 4;
    static final long REVENTS_OFFSET = 6;

    private static final MethodHandle POLL = Downcalls.bind("poll",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), Downcalls.CAPTURE_ERRNO);
    private static final MethodHandle READ = Downcalls.bind("read",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));

    private PollSys() {
    }

    /** Does nothing but run this class's initializer, which binds both functions. */
    static void link() {
    }

    /** poll(2): the number of entries with events, 0 on timeout, negative on failure (errno in {@code errno}). */
    static int poll(Errno errno, MemorySegment fds, long count, int timeoutMillis) {
        try {
            return (int) POLL.invokeExact(errno.segment, fds, count, timeoutMillis);
        } catch (Throwable t) {
            throw Downcalls.linkageFailure(t);
        }
    }

    /** read(2) without errno: to drain the wake-up eventfd. */
    static long read(int fd, MemorySegment buffer, long count) {
        try {
            return (long) READ.invokeExact(fd, buffer, count);
        } catch (Throwable t) {
            throw Downcalls.linkageFailure(t);
        }
    }
}
