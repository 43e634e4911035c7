package io.jasyncio.poll;

import io.jasyncio.loop.spi.ChannelFds;
import io.jasyncio.loop.spi.Poller;
import io.jasyncio.nativeio.Downcalls;
import io.jasyncio.nativeio.FdWatch;
import io.jasyncio.nativeio.FdWatches;
import io.jasyncio.nativeio.LibC;
import io.jasyncio.nativeio.linux.EventFdSys;
import io.jasyncio.nativeio.linux.EventFdWakeup;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.util.Arrays;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A {@link Poller} over poll(2): the kernel keeps nothing between calls, so each
 * {@link #select} writes one {@code pollfd} per watched channel, the wake-up eventfd first.
 * Level-triggered, mapped as asyncio's {@code PollSelector}: anything but {@code POLLOUT}
 * (errors, hang-ups) wakes the reader, anything but {@code POLLIN} the writer, and only what is
 * asked for is reported. A channel found closed is forgotten before its fd goes to the kernel.
 */
final class PollPoller implements Poller<PollPoller.Watch> {
    private final Arena arena = Arena.ofShared();
    private final Downcalls.Errno errno = new Downcalls.Errno(arena);
    private final MemorySegment drain = arena.allocate(JAVA_LONG);
    private final FdWatches<Watch> watched = new FdWatches<>(Watch[]::new);
    private final int eventFd;
    private final EventFdWakeup wakeups;
    private Arena fdsArena;
    private MemorySegment fds;
    private int fdsCapacity;
    /** The watches written into {@link #fds} by the select under way, by index (index 0: the eventfd). */
    private Watch[] polled = new Watch[0];
    private boolean closed;

    /** What the poller keeps per channel: its fd and the interest it was given. */
    static final class Watch extends FdWatch {
        Watch(SelectableChannel channel) {
            super(channel);
        }
    }

    PollPoller() throws IOException {
        String reason = ChannelFds.unavailableReason();
        if (reason != null) {
            arena.close();
            throw new IOException("the poll poller cannot run: " + reason);
        }
        int efd = EventFdSys.eventfd(errno, 0, EventFdSys.EFD_NONBLOCK | EventFdSys.EFD_CLOEXEC);
        if (efd < 0) {
            int e = errno.value();
            arena.close();
            throw new IOException("eventfd failed: " + LibC.describe(e));
        }
        eventFd = efd;
        wakeups = new EventFdWakeup(efd, arena);
        allocateFds(64);
    }

    private void allocateFds(int capacity) {
        Arena previous = fdsArena;
        fdsArena = Arena.ofShared();
        fds = fdsArena.allocate(PollSys.POLLFD_SIZE * capacity, 8);
        fdsCapacity = capacity;
        polled = new Watch[capacity];
        if (previous != null) {
            previous.close();
        }
    }

    @Override
    public Watch newRegistration(SelectableChannel channel) {
        return new Watch(channel);
    }

    @Override
    public Watch registrationOf(SelectableChannel channel) {
        return watched.ofChannel(channel);
    }

    @Override
    public void setInterest(Watch watch, int ops) throws IOException {
        // the kernel keeps nothing between polls: the table is all there is to change
        if (watched.setInterest(watch, ops) == FdWatches.CLOSED) {
            FdWatches.refuseMoreThanItHad(watch, ops);
        }
    }

    @Override
    public int select(long timeoutNanos, IoEventSink<? super Watch> sink) throws IOException {
        if (closed) {
            throw new ClosedChannelException();
        }
        if (timeoutNanos == 0 && watched.size() == 0) {
            return 0;
        }
        int count = writePollFds();
        int n = pollRetryingInterrupts(count, timeoutNanos);
        int reported = 0;
        for (int i = 0; i < count && n > 0; i++) {
            int revents = fds.get(JAVA_SHORT, i * PollSys.POLLFD_SIZE + PollSys.REVENTS_OFFSET) & 0xffff;
            if (revents == 0) {
                continue;
            }
            n--;
            if (i == 0) {
                PollSys.read(eventFd, drain, 8); // level-triggered: empty it, then let wakers write again
                wakeups.rearm();
                continue;
            }
            Watch watch = polled[i];
            if ((revents & PollSys.POLLNVAL) != 0) {
                watched.forget(watch); // its fd was closed under us
                continue;
            }
            if (watched.forgetIfClosed(watch)) {
                continue;
            }
            if (FdWatches.reportReady(watch, revents, sink)) { // as asyncio's PollSelector
                reported++;
            }
        }
        Arrays.fill(polled, 1, count, null); // holds no channel past its select: a dropped one can be collected
        return reported;
    }

    /** Writes the eventfd's and every open watched channel's pollfd; returns how many. */
    private int writePollFds() {
        int needed = watched.size() + 1;
        if (needed > fdsCapacity) {
            allocateFds(Math.max(needed, fdsCapacity * 2));
        }
        writePollFd(0, eventFd, PollSys.POLLIN);
        int count = 1;
        for (int fd = 0, capacity = watched.capacity(); fd < capacity && count < needed; fd++) {
            Watch watch = watched.get(fd);
            if (watch == null) {
                continue;
            }
            if (watched.forgetIfClosed(watch)) { // never hand a closed channel's (maybe reused) fd to the kernel
                needed--;
                continue;
            }
            int events = ((watch.ops() & READ) != 0 ? PollSys.POLLIN : 0) | ((watch.ops() & WRITE) != 0 ? PollSys.POLLOUT : 0);
            writePollFd(count, fd, events);
            polled[count++] = watch;
        }
        return count;
    }

    private void writePollFd(int index, int fd, int events) {
        long base = index * PollSys.POLLFD_SIZE;
        fds.set(JAVA_INT, base, fd);
        fds.set(JAVA_SHORT, base + PollSys.EVENTS_OFFSET, (short) events);
        fds.set(JAVA_SHORT, base + PollSys.REVENTS_OFFSET, (short) 0);
    }

    /** poll, retried on EINTR with what is left of the timeout. */
    private int pollRetryingInterrupts(int count, long timeoutNanos) throws IOException {
        long deadline = timeoutNanos > 0 ? System.nanoTime() + timeoutNanos : 0;
        long remaining = timeoutNanos;
        while (true) {
            int n = PollSys.poll(errno, fds, count, LibC.timeoutMillis(remaining));
            if (n >= 0) {
                return n;
            }
            int e = errno.value();
            if (e != LibC.EINTR) {
                throw new IOException("poll failed: " + LibC.describe(e));
            }
            if (timeoutNanos > 0) {
                remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return 0;
                }
            }
        }
    }


    @Override
    public void wakeup() {
        wakeups.wakeup();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        watched.clear();
        Arrays.fill(polled, null);
        if (wakeups.close()) {
            LibC.close(errno, eventFd);
        }
        fdsArena.close();
        arena.close();
    }
}
