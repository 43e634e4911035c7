package io.jasyncio.loop.spi;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;

/**
 * The file descriptor behind a {@link SelectableChannel}: the one place jasyncio reads it, for the
 * native backends (their pollers key registrations by fd) and for core's child processes (a
 * pipe's fd handed to the child). The JDK keeps it behind {@code sun.nio.ch.SelChImpl#getFDVal()},
 * a public method of a public interface in a package java.base does not export;
 * {@code --add-exports java.base/sun.nio.ch=ALL-UNNAMED} on the class path,
 * {@code =io.jasyncio.core} on the module path (read access only, no reflection into private
 * fields), is enough to call it through a method handle resolved once here. Without the export,
 * {@link #unavailableReason()} says why: the native loops stay off and child processes find their
 * pipes' numbers in {@code /proc/self/fd}.
 */
public final class ChannelFds {
    private ChannelFds() {
    }

    /** The flag that exports the fd accessor to this class: to its module on the module path. */
    public static final String REQUIRED_FLAG = "--add-exports java.base/sun.nio.ch="
            + (ChannelFds.class.getModule().isNamed() ? ChannelFds.class.getModule().getName() : "ALL-UNNAMED");

    private static final Class<?> SEL_CH_IMPL;
    private static final MethodHandle GET_FD_VAL;
    private static final String UNAVAILABLE_REASON;

    static {
        Class<?> type = null;
        MethodHandle getter = null;
        String reason = null;
        try {
            type = Class.forName("sun.nio.ch.SelChImpl");
            // Our own lookup, not publicLookup(): that one only sees unconditional exports.
            getter = MethodHandles.lookup()
                    .findVirtual(type, "getFDVal", MethodType.methodType(int.class))
                    .asType(MethodType.methodType(int.class, Object.class));
        } catch (IllegalAccessException e) {
            reason = "the JDK does not export sun.nio.ch to jasyncio (run with " + REQUIRED_FLAG + ")";
        } catch (ReflectiveOperationException | RuntimeException e) {
            reason = "this JDK has no sun.nio.ch.SelChImpl#getFDVal (" + e + ")";
        }
        SEL_CH_IMPL = reason == null ? type : null;
        GET_FD_VAL = reason == null ? getter : null;
        UNAVAILABLE_REASON = reason;
    }

    /** Null when {@link #fdOf} works; otherwise why it cannot. */
    public static String unavailableReason() {
        return UNAVAILABLE_REASON;
    }

    /** The channel's fd (its number stays readable after close, though the fd is then released). */
    public static int fdOf(SelectableChannel channel) {
        if (!SEL_CH_IMPL.isInstance(channel)) {
            throw new IllegalArgumentException("not a JDK channel with a file descriptor: " + channel.getClass().getName());
        }
        try {
            return (int) GET_FD_VAL.invokeExact((Object) channel);
        } catch (Throwable t) {
            throw new IllegalStateException("cannot read the fd of " + channel, t);
        }
    }

    /**
     * The fd of {@code channel}, about to be watched by a native poller: fails with
     * {@link ClosedChannelException} when it is closed (its number may be
     * another file's by now), and makes it non-blocking first.
     */
    public static int fdToWatch(SelectableChannel channel) throws IOException {
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
        if (channel.isBlocking()) {
            channel.configureBlocking(false);
        }
        return fdOf(channel);
    }
}
