package io.jasyncio.nativeio;

import io.jasyncio.loop.spi.ChannelFds;
import io.jasyncio.loop.spi.Poller;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.util.function.IntFunction;

/**
 * A native poller's bookkeeping of its watched channels, one copy for every fd-based poller
 * (epoll, io_uring, poll(2), a backend of another project's): the fd to watch table
 * ({@link FdTable}) and the rules of an interest change, while the poller keeps only what its
 * kernel needs. {@link #setInterest} updates the watch and the table and says what changed
 * ({@link #ADDED}, {@link #CHANGED}, {@link #REMOVED}, {@link #CLOSED}), and the poller tells its
 * kernel; it never calls back, so it costs each poller no megamorphic call.
 *
 * <p>A channel closed by its user while watched has released its fd, whose number the kernel may
 * already have handed to a new channel: a closed channel's watch leaves the table when an
 * interest change or a readiness report reaches it ({@link #forgetIfClosed}), and its fd is never
 * handed to the kernel again; a new channel on the same number takes the slot over
 * ({@link #replaced()}). Loop thread only.
 *
 * @param <W> the poller's registration
 */
public final class FdWatches<W extends FdWatch> {
    /** {@link #setInterest} changed nothing the kernel knows. */
    public static final int UNCHANGED = 0;
    /** The watch is watched now, by its {@link FdWatch#fd()}, with its {@link FdWatch#ops()}: the kernel is to watch the fd. */
    public static final int ADDED = 1;
    /** The watch's interest changed to its (non-zero) {@link FdWatch#ops()}: the kernel is to be told. */
    public static final int CHANGED = 2;
    /** Interest 0: the watch left the table; its channel is open, so the kernel is to stop watching its fd. */
    public static final int REMOVED = 3;
    /**
     * Its channel was found closed: the watch left the table, its fd is not to be named to the
     * kernel again (the kernel may have reused it); {@link #refuseMoreThanItHad} follows.
     */
    public static final int CLOSED = 4;

    private final FdTable<W> table;
    private W replaced;

    /** An empty bookkeeping whose table's slots are made by {@code newArray} ({@code Watch[]::new}). */
    public FdWatches(IntFunction<W[]> newArray) {
        table = new FdTable<>(newArray);
    }

    /**
     * Applies {@link Poller#setInterest}'s rules to {@code watch}: a first non-zero interest reads
     * the channel's fd ({@link ChannelFds#fdToWatch}, which fails for a closed channel) and puts it
     * in the table; 0 takes it out; a closed channel's watch is taken out whatever was asked. Returns
     * what the poller's kernel is to be told: {@link #UNCHANGED}, {@link #ADDED}, {@link #CHANGED},
     * {@link #REMOVED} or {@link #CLOSED}.
     */
    public int setInterest(W watch, int ops) throws IOException {
        replaced = null;
        if (!watch.watched) {
            if (ops == 0) {
                return UNCHANGED;
            }
            watch.fd = ChannelFds.fdToWatch(watch.channel());
            watch.ops = ops;
            watch.watched = true;
            replaced = table.put(watch.fd, watch);
            return ADDED;
        }
        if (!watch.channel().isOpen()) {
            forget(watch);
            return CLOSED;
        }
        if (ops == watch.ops) {
            return UNCHANGED;
        }
        watch.ops = ops;
        if (ops == 0) {
            forget(watch);
            return REMOVED;
        }
        return CHANGED;
    }

    /**
     * After {@link #CLOSED}: fails with {@link ClosedChannelException} if {@code ops} asked for
     * more than the watch had (a reader or writer added to a closed channel); taking interest away
     * from a closed channel is quiet.
     */
    public static void refuseMoreThanItHad(FdWatch watch, int ops) throws ClosedChannelException {
        if ((ops & ~watch.ops) != 0) {
            throw new ClosedChannelException();
        }
    }

    /**
     * The watch the last {@link #ADDED} took the fd's slot from (its channel closed, its fd number
     * reused by the new one before the loop noticed), or null. It is still marked watched: a poller
     * whose kernel holds something for it releases that and then {@link #forget}s it.
     */
    public W replaced() {
        return replaced;
    }

    /** The watch of {@code fd}, or null: what a readiness report names. */
    public W get(int fd) {
        return table.get(fd);
    }

    /** The watch of this very channel (not of another one now on its fd number), or null. */
    public W ofChannel(SelectableChannel channel) {
        return table.ofChannel(channel);
    }

    /**
     * If {@code watch}'s channel is closed, forgets it and returns true: a readiness report for it
     * is stale (its fd was closed under the poller), to be dropped.
     */
    public boolean forgetIfClosed(W watch) {
        if (watch.channel().isOpen()) {
            return false;
        }
        forget(watch);
        return true;
    }

    /**
     * Hands {@code sink} what a readiness report of {@code pollEvents} means for {@code watch}
     * ({@link FdWatch#readyOps}, as asyncio's selectors read it); true when there was something to
     * report. The poller has already dropped a stale report ({@link #forgetIfClosed}).
     */
    public static <W extends FdWatch> boolean reportReady(W watch, int pollEvents, Poller.IoEventSink<? super W> sink) {
        int ops = watch.readyOps(pollEvents);
        if (ops == 0) {
            return false;
        }
        sink.onIoEvent(watch, ops);
        return true;
    }

    /** Takes {@code watch} out of the table (if it still holds its fd's slot) and marks it not watched; its interest stays. */
    public void forget(W watch) {
        table.remove(watch.fd, watch);
        watch.watched = false;
    }

    /** How many channels are watched. */
    public int size() {
        return table.size();
    }

    /** One past the highest fd the table has room for: the bound of a walk with {@link #get}. */
    public int capacity() {
        return table.capacity();
    }

    /** Forgets every watch (the poller closes). */
    public void clear() {
        table.clear();
    }
}
