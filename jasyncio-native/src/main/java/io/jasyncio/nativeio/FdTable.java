package io.jasyncio.nativeio;

import io.jasyncio.loop.spi.ChannelFds;
import io.jasyncio.loop.spi.IoRegistration;
import java.nio.channels.SelectableChannel;
import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * The native loops' watched channels, found by fd: an array indexed by fd (the kernel hands out
 * the lowest free number, so it stays small), grown as needed. A closed channel's fd may be
 * reused by a new channel before the loop noticed the close, so a slot can be taken over, and a
 * registration is removed only if it still holds its slot. {@link FdWatches} keeps one for
 * each native poller, over the poller's own registration type.
 *
 * @param <R> the poller's registration
 */
public final class FdTable<R extends IoRegistration> {
    private R[] byFd;
    private int size;

    /** An empty table whose slots are made by {@code newArray} ({@code Watch[]::new}). */
    public FdTable(IntFunction<R[]> newArray) {
        byFd = newArray.apply(256);
    }

    /** The registration watching {@code fd}, or null. */
    public R get(int fd) {
        R[] table = byFd;
        return fd >= 0 && fd < table.length ? table[fd] : null;
    }

    /** The registration of this very channel (not of another one now on its fd number), or null. */
    public R ofChannel(SelectableChannel channel) {
        R registration = get(ChannelFds.fdOf(channel));
        return registration != null && registration.channel() == channel ? registration : null;
    }

    /** Puts {@code registration} at {@code fd}; returns the one it replaced (its channel closed, its fd reused), or null. */
    public R put(int fd, R registration) {
        if (fd >= byFd.length) {
            byFd = Arrays.copyOf(byFd, Math.max(fd + 1, byFd.length * 2));
        }
        R previous = byFd[fd];
        if (previous == null) {
            size++;
        }
        byFd[fd] = registration;
        return previous;
    }

    /** Empties {@code fd}'s slot if {@code registration} still holds it. */
    public void remove(int fd, R registration) {
        if (fd >= 0 && fd < byFd.length && byFd[fd] == registration) {
            byFd[fd] = null;
            size--;
        }
    }

    /** How many fds are watched. */
    public int size() {
        return size;
    }

    /** One past the highest fd the table has room for (before it grows): the bound for a walk with {@link #get}. */
    public int capacity() {
        return byFd.length;
    }

    /** Forgets every registration. */
    public void clear() {
        Arrays.fill(byFd, null);
        size = 0;
    }
}
