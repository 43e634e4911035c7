package io.jasyncio.uring;

import io.jasyncio.nativeio.Downcalls;
import io.jasyncio.nativeio.linux.EpollSys;
import io.jasyncio.nativeio.LibC;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static io.jasyncio.nativeio.linux.EpollSys.EPOLL_EVENT_DATA_OFFSET;
import static io.jasyncio.nativeio.linux.EpollSys.EPOLL_EVENT_SIZE;
import static io.jasyncio.nativeio.linux.EpollSys.EVENT_INT;

/**
 * The io_uring poller's listening sockets, watched through an epoll instance of its own whose fd
 * the ring polls. A poll armed on the ring holds a reference to its file, and a cancelled poll
 * lets that reference go only when the task work of the thread that armed it runs (with
 * cooperative or deferred task running, at that thread's next {@code io_uring_enter}): a listener
 * closed meanwhile, say from another thread while the loop's is parked, would go on completing
 * handshakes in the kernel and reset them later. epoll holds no reference, and
 * {@code EPOLL_CTL_DEL} takes effect before it returns, on any thread: a listener no longer
 * watched, or closed, stops listening at once. Level-triggered, as the ring's polls are.
 */
final class ListenerEpoll implements AutoCloseable {
    /** Reported per drain; more ready listeners stay ready and are drained at the next one. */
    private static final int EVENTS = 64;

    /** A ready listener, as {@link #drain} hands it over. */
    @FunctionalInterface
    interface ReadySink {
        void onReady(int fd, int epollEvents);
    }

    final int fd;
    private final Downcalls.Errno errno;
    private final MemorySegment ctlEvent;
    private final MemorySegment events;
    private int watchedCount;

    ListenerEpoll(Arena arena) throws IOException {
        errno = new Downcalls.Errno(arena);
        ctlEvent = arena.allocate(EPOLL_EVENT_SIZE, 8);
        events = arena.allocate(EPOLL_EVENT_SIZE * EVENTS, 8);
        fd = EpollSys.epollCreate1(errno, EpollSys.EPOLL_CLOEXEC);
        if (fd < 0) {
            throw new IOException("epoll_create1 failed: " + LibC.describe(errno.value()));
        }
    }

    /** Watches {@code listenerFd} for {@code pollEvents} (POLLIN/POLLOUT: epoll's bits are poll's). */
    void watch(int listenerFd, int pollEvents) throws IOException {
        ctlEvent.set(EVENT_INT, 0, pollEvents);
        ctlEvent.set(EVENT_INT, EPOLL_EVENT_DATA_OFFSET, listenerFd);
        if (EpollSys.epollCtl(errno, fd, EpollSys.EPOLL_CTL_ADD, listenerFd, ctlEvent) != 0) {
            throw new IOException("epoll_ctl of a listener failed: " + LibC.describe(errno.value()));
        }
        watchedCount++;
    }

    /** Stops watching {@code listenerFd}; done when this returns. An fd epoll already forgot (closed) is no error. */
    void unwatch(int listenerFd) {
        EpollSys.epollCtl(errno, fd, EpollSys.EPOLL_CTL_DEL, listenerFd, ctlEvent);
        watchedCount--;
    }

    /** Whether any listener is watched: only then does the ring poll this epoll's fd. */
    boolean isWatching() {
        return watchedCount > 0;
    }

    /** Hands every ready listener to {@code sink} (at most {@value #EVENTS}); never waits. */
    void drain(ReadySink sink) {
        int n = EpollSys.epollPoll(errno, fd, events, EVENTS);
        for (int i = 0; i < n; i++) {
            long at = i * EPOLL_EVENT_SIZE;
            sink.onReady(events.get(EVENT_INT, at + EPOLL_EVENT_DATA_OFFSET), events.get(EVENT_INT, at));
        }
    }

    @Override
    public void close() {
        LibC.close(errno, fd);
    }
}
