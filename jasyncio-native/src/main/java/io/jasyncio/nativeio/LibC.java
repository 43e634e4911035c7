package io.jasyncio.nativeio;

import io.jasyncio.nativeio.Downcalls.Errno;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static io.jasyncio.nativeio.Downcalls.bind;
import static io.jasyncio.nativeio.Downcalls.linkageFailure;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The POSIX calls every native backend makes (writing a wake-up, closing a descriptor), bound once
 * as FFM downcall handles ({@link Downcalls}), and the errno values they check (Linux's numbers;
 * Linux-only calls are in {@code io.jasyncio.nativeio.linux}). Calls that can
 * fail take a per-caller {@link Errno} segment first; each returns the C result unchanged
 * (negative on failure).
 */
public final class LibC {
    private LibC() {
    }

    /** errno: interrupted by a signal (Linux's number, as every errno here). */
    public static final int EINTR = 4;
    /** errno: not an open fd. */
    public static final int EBADF = 9;
    /** errno: would block. */
    public static final int EAGAIN = 11;
    /** errno: already there. */
    public static final int EEXIST = 17;
    /** errno: no such entry. */
    public static final int ENOENT = 2;

    private static final Linker.Option ERRNO_OPTION = Downcalls.CAPTURE_ERRNO;

    /** write(2) without errno capture: for the wake-up, which any thread may call. */
    private static final MethodHandle WRITE = bind("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle CLOSE = bind("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), ERRNO_OPTION);

    /** Does nothing but run this class's initializer, which binds every function. */
    public static void link() {
    }

    /** write(2) of {@code count} bytes from {@code buffer}: the bytes written, or negative. */
    public static long write(int fd, MemorySegment buffer, long count) {
        try {
            return (long) WRITE.invokeExact(fd, buffer, count);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /**
     * A wait's timeout in nanoseconds as the millisecond argument of poll(2) and epoll_wait(2):
     * rounded up (a timer is never early, a short wait never spins), capped at
     * {@code Integer.MAX_VALUE}; 0 polls, a negative timeout (-1) waits with no timeout.
     */
    public static int timeoutMillis(long nanos) {
        if (nanos <= 0) {
            return nanos == 0 ? 0 : -1;
        }
        return (int) Math.min(Integer.MAX_VALUE, (nanos + 999_999) / 1_000_000);
    }

    /** close(2): 0, or negative (errno in {@code errno}). */
    public static int close(Errno errno, int fd) {
        try {
            return (int) CLOSE.invokeExact(errno.segment, fd);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /** The symbolic name of {@code errno} where this class knows it, else its number. */
    public static String describe(int errno) {
        return switch (errno) {
            case EINTR -> "EINTR";
            case EBADF -> "EBADF";
            case EAGAIN -> "EAGAIN";
            case EEXIST -> "EEXIST";
            case ENOENT -> "ENOENT";
            default -> "errno " + errno;
        };
    }
}
