package io.jasyncio.subprocess;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.channels.Channel;

/**
 * The number of the file descriptor behind a JDK pipe channel, which the JDK keeps behind
 * {@code sun.nio.ch.SelChImpl#getFDVal()}: readable only when java.base exports
 * {@code sun.nio.ch} to us ({@code --add-exports java.base/sun.nio.ch=ALL-UNNAMED}, which the
 * epoll loop needs anyway). Without it {@link #unavailableReason()} says why, and the numbers
 * are looked for in {@code /proc/self/fd} instead ({@link ProcPipeFds}; see {@link ChildPipes}).
 */
final class PipeFds {
    private static final MethodHandle GET_FD_VAL;
    private static final String UNAVAILABLE_REASON;

    static {
        MethodHandle getter = null;
        String reason = null;
        try {
            Class<?> type = Class.forName("sun.nio.ch.SelChImpl");
            getter = MethodHandles.lookup()
                    .findVirtual(type, "getFDVal", MethodType.methodType(int.class))
                    .asType(MethodType.methodType(int.class, Channel.class));
        } catch (IllegalAccessException e) {
            reason = "java.base does not export sun.nio.ch to jasyncio";
        } catch (ReflectiveOperationException | RuntimeException e) {
            reason = "this JDK has no sun.nio.ch.SelChImpl#getFDVal (" + e + ")";
        }
        GET_FD_VAL = getter;
        UNAVAILABLE_REASON = reason;
    }

    private PipeFds() {
    }

    /** Null when {@link #fdOf} works; otherwise why it cannot. */
    static String unavailableReason() {
        return UNAVAILABLE_REASON;
    }

    static int fdOf(Channel channel) {
        try {
            return (int) GET_FD_VAL.invokeExact(channel);
        } catch (Throwable t) {
            throw new IllegalStateException("cannot read the fd of " + channel, t);
        }
    }
}
