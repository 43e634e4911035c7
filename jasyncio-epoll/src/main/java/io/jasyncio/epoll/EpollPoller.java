package io.jasyncio.epoll;

import io.jasyncio.loop.spi.Poller;
import io.jasyncio.loop.spi.ChannelFds;
import io.jasyncio.nativeio.Downcalls;
import io.jasyncio.nativeio.linux.EpollSys;
import io.jasyncio.nativeio.linux.EventFdWakeup;
import io.jasyncio.nativeio.FdWatch;
import io.jasyncio.nativeio.FdWatches;
import io.jasyncio.nativeio.LibC;
import io.jasyncio.nativeio.linux.EventFdSys;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;

import static io.jasyncio.nativeio.linux.EpollSys.EPOLL_EVENT_DATA_OFFSET;
import static io.jasyncio.nativeio.linux.EpollSys.EPOLL_EVENT_SIZE;
import static io.jasyncio.nativeio.linux.EpollSys.EVENT_INT;

/**
 * {@link Poller} straight over Linux epoll, through FFM downcalls: no {@code Selector}, no
 * {@code SelectionKey}s, no synchronized key sets. Level-triggered, like asyncio's selectors.
 *
 * <ul>
 *   <li>Channels are found by fd in the kit's {@link FdWatches}, which also keeps each
 *       registration's fd and interest and says what an interest change means for epoll.</li>
 *   <li>{@code epoll_wait} fills a native events array reused across calls; a full array doubles
 *       for the next call (as Netty does), so a burst is drained in fewer calls.</li>
 *   <li>Wake-ups write an eventfd. A flag dedupes them ({@link EventFdWakeup}): only the first {@link #wakeup()} after the
 *       loop last saw the eventfd pays for a syscall, so a busy producer costs one CAS. The eventfd
 *       is edge-triggered (as in Netty): each write is a new edge, so the loop never reads it
 *       back, one syscall less per wake-up (its counter would need 2^64 wake-ups to fill).</li>
 *   <li>A poll (timeout 0) with no channel watched is skipped: it could only report the eventfd,
 *       whose wake-ups the loop does not need while it is not going to sleep (libuv skips its
 *       poll likewise when it watches no fds). A pending edge stays and is seen at the next wait.
 *       Polls that are made use a "critical" downcall (see {@link EpollSys}).</li>
 *   <li>The JDK closes a channel's fd when the channel closes (it knows nothing of our epoll, and
 *       epoll forgets a closed fd by itself). Our table must forget it too: a registration whose
 *       channel is closed is dropped when an event or an interest change reaches it, and a new
 *       channel that reuses the fd number simply replaces it.</li>
 * </ul>
 */
public final class EpollPoller implements Poller<EpollPoller.Watch> {
    private static final int INITIAL_EVENTS = 64;
    private static final int MAX_EVENTS = 4096;

    private final Arena arena = Arena.ofShared();
    private final Downcalls.Errno errno = new Downcalls.Errno(arena);
    private final MemorySegment ctlEvent = arena.allocate(EPOLL_EVENT_SIZE, 8);
    private final int epfd;
    private final int eventFd;

    private Arena eventsArena;
    private MemorySegment events;
    private int eventsCapacity;
    private final FdWatches<Watch> watched = new FdWatches<>(Watch[]::new);
    private final EventFdWakeup wakeups;
    private boolean closed;

    /** What the poller keeps per channel: its fd and the interest set for it in epoll, once watched. */
    static final class Watch extends FdWatch {
        Watch(SelectableChannel channel) {
            super(channel);
        }
    }

    public EpollPoller() throws IOException {
        String reason = ChannelFds.unavailableReason();
        if (reason != null) {
            arena.close();
            throw new IOException("the epoll poller cannot run: " + reason);
        }
        int ep = EpollSys.epollCreate1(errno, EpollSys.EPOLL_CLOEXEC);
        if (ep < 0) {
            int e = errno.value();
            arena.close();
            throw new IOException("epoll_create1 failed: " + LibC.describe(e));
        }
        int efd = EventFdSys.eventfd(errno, 0, EventFdSys.EFD_NONBLOCK | EventFdSys.EFD_CLOEXEC);
        if (efd < 0) {
            int e = errno.value();
            LibC.close(errno, ep);
            arena.close();
            throw new IOException("eventfd failed: " + LibC.describe(e));
        }
        this.epfd = ep;
        this.eventFd = efd;
        this.wakeups = new EventFdWakeup(efd, arena);
        try {
            ctl(EpollSys.EPOLL_CTL_ADD, efd, EpollSys.EPOLLIN | EpollSys.EPOLLET);
        } catch (IOException e) {
            close();
            throw e;
        }
        allocateEvents(INITIAL_EVENTS);
    }

    private void allocateEvents(int capacity) {
        Arena previous = eventsArena;
        eventsArena = Arena.ofShared();
        events = eventsArena.allocate(EPOLL_EVENT_SIZE * capacity, 8);
        eventsCapacity = capacity;
        if (previous != null) {
            previous.close();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Interest
    // ---------------------------------------------------------------------------------------------

    @Override
    public Watch newRegistration(SelectableChannel channel) {
        return new Watch(channel);
    }

    @Override
    public void setInterest(Watch watch, int ops) throws IOException {
        switch (watched.setInterest(watch, ops)) {
            case FdWatches.ADDED -> {
                // EEXIST: a closed channel's fd number, reused, may still be known to epoll when its
                // file lives on elsewhere; take it over.
                try {
                    if (ctlQuiet(EpollSys.EPOLL_CTL_ADD, watch.fd(), toEpoll(ops)) != 0) {
                        ctl(EpollSys.EPOLL_CTL_MOD, watch.fd(), toEpoll(ops));
                    }
                } catch (IOException e) {
                    watched.forget(watch);
                    throw e;
                }
            }
            // Its fd is gone (and maybe reused): never touch epoll for it again.
            case FdWatches.CLOSED -> FdWatches.refuseMoreThanItHad(watch, ops);
            case FdWatches.REMOVED -> {
                int e = ctlQuiet(EpollSys.EPOLL_CTL_DEL, watch.fd(), 0);
                if (e != 0 && e != LibC.ENOENT && e != LibC.EBADF) {
                    throw new IOException("epoll_ctl(DEL, " + watch.fd() + ") failed: " + LibC.describe(e));
                }
            }
            case FdWatches.CHANGED -> {
                if (ctlQuiet(EpollSys.EPOLL_CTL_MOD, watch.fd(), toEpoll(ops)) == LibC.ENOENT) {
                    ctl(EpollSys.EPOLL_CTL_ADD, watch.fd(), toEpoll(ops));
                }
            }
            default -> {
            }
        }
    }

    @Override
    public Watch registrationOf(SelectableChannel channel) {
        return watched.ofChannel(channel);
    }

    /** The number of channels watched now (for tests and statistics). */
    public int watchedCount() {
        return watched.size();
    }

    private static int toEpoll(int ops) {
        return ((ops & READ) != 0 ? EpollSys.EPOLLIN : 0) | ((ops & WRITE) != 0 ? EpollSys.EPOLLOUT : 0);
    }

    private void ctl(int op, int fd, int epollEvents) throws IOException {
        int e = ctlQuiet(op, fd, epollEvents);
        if (e != 0) {
            throw new IOException("epoll_ctl(" + op + ", fd " + fd + ") failed: " + LibC.describe(e));
        }
    }

    /** epoll_ctl; returns 0 or the errno. */
    private int ctlQuiet(int op, int fd, int epollEvents) {
        ctlEvent.set(EVENT_INT, 0, epollEvents);
        ctlEvent.set(EVENT_INT, EPOLL_EVENT_DATA_OFFSET, fd);
        ctlEvent.set(EVENT_INT, EPOLL_EVENT_DATA_OFFSET + 4, 0);
        return EpollSys.epollCtl(errno, epfd, op, fd, ctlEvent) == 0 ? 0 : errno.value();
    }

    // ---------------------------------------------------------------------------------------------
    // Waiting
    // ---------------------------------------------------------------------------------------------

    @Override
    public int select(long timeoutNanos, IoEventSink<? super Watch> sink) throws IOException {
        if (closed) {
            throw new ClosedChannelException();
        }
        if (timeoutNanos == 0 && watched.size() == 0) {
            return 0;
        }
        int n = epollWait(timeoutNanos);
        MemorySegment ready = events;
        FdWatches<Watch> table = watched;
        int reported = 0;
        for (int i = 0; i < n; i++) {
            long base = i * EPOLL_EVENT_SIZE;
            int epollEvents = ready.get(EVENT_INT, base);
            int fd = ready.get(EVENT_INT, base + EPOLL_EVENT_DATA_OFFSET);
            if (fd == eventFd) {
                wakeups.rearm();
                continue;
            }
            Watch watch = table.get(fd);
            if (watch == null) {
                continue;
            }
            if (table.forgetIfClosed(watch)) {
                continue; // stale: its fd was closed under us
            }
            if (FdWatches.reportReady(watch, epollEvents, sink)) { // as asyncio's EpollSelector
                reported++;
            }
        }
        if (n == eventsCapacity && eventsCapacity < MAX_EVENTS) {
            allocateEvents(eventsCapacity * 2);
        }
        return reported;
    }

    /** epoll_wait, retried on EINTR with what is left of the timeout. */
    private int epollWait(long timeoutNanos) throws IOException {
        long deadline = timeoutNanos > 0 ? System.nanoTime() + timeoutNanos : 0;
        long remaining = timeoutNanos;
        while (true) {
            int n = remaining == 0
                    ? EpollSys.epollPoll(errno, epfd, events, eventsCapacity)
                    : EpollSys.epollWait(errno, epfd, events, eventsCapacity, LibC.timeoutMillis(remaining));
            if (n >= 0) {
                return n;
            }
            int e = errno.value();
            if (e != LibC.EINTR) {
                throw new IOException("epoll_wait failed: " + LibC.describe(e));
            }
            if (timeoutNanos > 0) {
                remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return 0;
                }
            }
        }
    }


    // ---------------------------------------------------------------------------------------------
    // Wake-up
    // ---------------------------------------------------------------------------------------------

    @Override
    public void wakeup() {
        wakeups.wakeup();
    }

    // ---------------------------------------------------------------------------------------------
    // Closing
    // ---------------------------------------------------------------------------------------------

    @Override
    public void close() throws IOException {
        if (!wakeups.close()) {
            return;
        }
        closed = true;
        int failedErrno = 0;
        if (LibC.close(errno, eventFd) != 0) {
            failedErrno = errno.value();
        }
        if (LibC.close(errno, epfd) != 0) {
            failedErrno = errno.value();
        }
        watched.clear();
        if (eventsArena != null) {
            eventsArena.close();
        }
        arena.close();
        if (failedErrno != 0) {
            throw new IOException("closing the epoll fds failed: " + LibC.describe(failedErrno));
        }
    }
}
