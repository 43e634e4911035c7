package io.jasyncio.nativeio.linux;

import io.jasyncio.nativeio.Downcalls;
import io.jasyncio.nativeio.Downcalls.Errno;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * eventfd(2), bound once as an FFM downcall handle ({@link Downcalls}): the counter a Linux
 * poller watches to be woken ({@link EventFdWakeup}).
 */
public final class EventFdSys {
    /** eventfd's flag: reads and writes never block. */
    public static final int EFD_NONBLOCK = 0x800;
    /** eventfd's flag: close the fd on exec. */
    public static final int EFD_CLOEXEC = 0x80000;

    private static final MethodHandle EVENTFD = Downcalls.bind("eventfd",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), Downcalls.CAPTURE_ERRNO);

    private EventFdSys() {
    }

    /** Does nothing but run this class's initializer, which binds the function. */
    public static void link() {
    }

    /** A new eventfd with the counter at {@code initval}, or a negative value (errno in {@code errno}). */
    public static int eventfd(Errno errno, int initval, int flags) {
        try {
            return (int) EVENTFD.invokeExact(errno.segment, initval, flags);
        } catch (Throwable t) {
            throw Downcalls.linkageFailure(t);
        }
    }
}
