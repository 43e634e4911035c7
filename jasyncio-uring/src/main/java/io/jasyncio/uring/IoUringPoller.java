package io.jasyncio.uring;

import io.jasyncio.loop.spi.ChannelFds;
import io.jasyncio.nativeio.Downcalls;
import io.jasyncio.nativeio.linux.EventFdWakeup;
import io.jasyncio.nativeio.FdWatch;
import io.jasyncio.nativeio.FdWatches;
import io.jasyncio.loop.spi.Poller;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@link Poller} over an io_uring: readiness is asked for with one-shot poll requests on the ring
 * ({@code IORING_OP_POLL_ADD}), and the loop's one wait is the {@code io_uring_enter} that also
 * submits every request queued since the last one. A poll that completed is armed again at the
 * next select while its channel is still watched, which makes it level-triggered like asyncio's
 * selectors: data left unread is reported again. The same ring also carries the stream
 * transports' receives and sends themselves, as requests that complete later
 * ({@code submitSocketIo}: asyncio's proactor shape, see {@link IoUringBackend}); polls serve
 * {@code addReader}/{@code addWriter}, accepting and connecting.
 *
 * <ul>
 *   <li>A poll's user data is the fd and a generation: a changed interest cancels the old poll
 *       ({@code IORING_OP_POLL_REMOVE}) and arms a new one with the next generation, so a late
 *       completion of the old one is recognised and ignored.</li>
 *   <li>An armed poll holds a reference to its file, so a channel closed while watched would stay
 *       open in the kernel until the poll ends. Transports stop watching before closing; for
 *       channels closed while watched, every {@value #SWEEP_EVERY} selects the watched channels are
 *       checked and the polls of closed ones cancelled.</li>
 *   <li>Listening sockets are the exception: a cancelled poll lets its file go only once the
 *       arming thread's task work runs, and a listener must stop listening the moment it is no
 *       longer watched or closed, on whatever thread that happens. They are watched through an
 *       epoll instance of the poller's own, which holds no file reference and whose fd the ring
 *       polls ({@link ListenerEpoll}).</li>
 *   <li>Wake-ups write an eventfd watched by a poll of its own, deduplicated by the flag the
 *       epoll poller uses too ({@link EventFdWakeup}).</li>
 * </ul>
 */
public final class IoUringPoller implements Poller<IoUringPoller.Watch> {
    private static final int POLLIN = 0x001;
    private static final int POLLOUT = 0x004;
    private static final int POLLERR = 0x008;
    private static final int POLLHUP = 0x010;
    private static final long WAKE_DATA = -1L;
    private static final long REMOVE_DATA = -2L;
    private static final long CANCEL_DATA = -3L;
    private static final long LISTENERS_DATA = -4L;
    /** A proactor request's user data: this bit and its slot in {@link #inFlight}. */
    private static final long REQUEST_TAG = Long.MIN_VALUE;
    static final int SWEEP_EVERY = 256;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment wakeDrain = arena.allocate(JAVA_LONG);
    private final IoUring ring;
    private final int eventFd;
    private final FdWatches<Watch> watched = new FdWatches<>(Watch[]::new);
    private final List<Watch> toRearm = new ArrayList<>();
    /** The sends asked for since the last select, made requests just before it enters the kernel. */
    private final List<RingOperation> sendsToPrepare = new ArrayList<>();
    private boolean wakePollArmed;
    /** Made at the first listener watched. */
    private ListenerEpoll listeners;
    private boolean listenersPollArmed;
    private final ListenerEpoll.ReadySink onListenerReady = this::onListenerReady;
    private int selects;
    private final IoUring.CompletionSink onCompletion = this::onCompletion;
    private IoEventSink<? super Watch> sink;
    private int reported;
    private final EventFdWakeup wakeups;
    /** Made at the first receive into them: a loop without stream connections needs none. */
    private ProvidedBuffers buffers;
    private boolean closed;
    /** The proactor requests in flight, by slot; free slots are stacked in {@link #freeSlots}. */
    private RingOperation[] inFlight = new RingOperation[256];
    private int[] freeSlots = new int[256];
    private int freeCount;
    private int slotsUsed;

    /**
     * What the poller keeps per channel, once watched: its fd, the interest, and the poll armed for
     * it (for a listener: whether it is in {@link #listeners}).
     */
    static final class Watch extends FdWatch {
        final boolean listener;
        int generation;
        boolean armed;
        boolean queuedForRearm;

        Watch(SelectableChannel channel) {
            super(channel);
            this.listener = channel instanceof ServerSocketChannel;
        }

        long userData() {
            return ((long) fd() << 32) | (generation & 0xFFFF_FFFFL);
        }
    }

    public IoUringPoller() throws IOException {
        this(TaskRunMode.configured());
    }

    IoUringPoller(TaskRunMode taskRun) throws IOException {
        String reason = ChannelFds.unavailableReason();
        if (reason != null) {
            arena.close();
            throw new IOException("the io_uring poller cannot run: " + reason);
        }
        ring = new IoUring(1024, taskRun);
        Downcalls.Errno errno = new Downcalls.Errno(arena);
        int efd = UringSys.eventfd(errno, UringSys.EFD_NONBLOCK | UringSys.EFD_CLOEXEC);
        if (efd < 0) {
            ring.close();
            arena.close();
            throw new IOException("eventfd failed: errno " + errno.value());
        }
        eventFd = efd;
        wakeups = new EventFdWakeup(efd, arena);

    }

    // ---------------------------------------------------------------------------------------------
    // Interest
    // ---------------------------------------------------------------------------------------------

    @Override
    public void setInterest(Watch watch, int ops) throws IOException {
        switch (watched.setInterest(watch, ops)) {
            case FdWatches.ADDED -> {
                cancelReplaced(watch);
                cancel(watch);
                arm(watch);
            }
            case FdWatches.CLOSED -> {
                cancel(watch);
                FdWatches.refuseMoreThanItHad(watch, ops);
            }
            case FdWatches.REMOVED -> cancel(watch);
            case FdWatches.CHANGED -> {
                cancel(watch);
                arm(watch);
            }
            default -> {
            }
        }
    }

    @Override
    public Watch registrationOf(SelectableChannel channel) {
        return watched.ofChannel(channel);
    }

    @Override
    public Watch newRegistration(SelectableChannel channel) {
        return new Watch(channel);
    }

    // ---------------------------------------------------------------------------------------------
    // Proactor requests
    // ---------------------------------------------------------------------------------------------

    /** Has {@code operation} prepare its send right before the next select enters the kernel. */
    void sendBeforeNextEnter(RingOperation operation) {
        sendsToPrepare.add(operation);
    }

    /** Queues a send (or receive into a buffer) for {@code operation}, submitted with the next select. */
    void submitSocketIo(RingOperation operation, byte opcode, int fd, long address, int length, int msgFlags) {
        MemorySegment sqe = nextSqe();
        IoUring.prepareSocketIo(sqe, opcode, fd, address, length, msgFlags, holdInFlight(operation));
    }

    /** Queues a receive of one provided buffer's worth for {@code operation} ({@code pollFirst}: the socket is empty). */
    void submitRecvProvided(RingOperation operation, int fd, boolean pollFirst) {
        if (buffers == null) {
            try {
                buffers = new ProvidedBuffers(ring, arena);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        MemorySegment sqe = nextSqe();
        IoUring.prepareRecvProvided(sqe, fd, ProvidedBuffers.GROUP, pollFirst, holdInFlight(operation));
    }

    private long holdInFlight(RingOperation operation) {
        if (operation.userData != 0) {
            throw new IllegalStateException("a request is already in flight on this slot");
        }
        int slot = freeCount > 0 ? freeSlots[--freeCount] : slotsUsed++;
        if (slot >= inFlight.length) {
            inFlight = Arrays.copyOf(inFlight, inFlight.length * 2);
            freeSlots = Arrays.copyOf(freeSlots, freeSlots.length * 2);
        }
        inFlight[slot] = operation;
        operation.userData = REQUEST_TAG | slot;
        return operation.userData;
    }

    /** Provided buffer {@code id}'s first {@code length} bytes. */
    ByteBuffer bufferView(int id, int length) {
        return buffers.view(id, length);
    }

    /** A receive found no provided buffer: the ring is to hold more. */
    void buffersRanOut() {
        buffers.ranOut();
    }

    /** Gives provided buffer {@code id} back to the kernel. */
    void giveBuffer(int id) {
        if (!closed) {
            buffers.give(id);
        }
    }

    /** Asks the kernel to end {@code operation}'s request in flight, if any; it completes as usual. */
    void cancel(RingOperation operation) {
        if (operation.userData != 0) {
            IoUring.prepareCancel(nextSqe(), IoUring.OP_ASYNC_CANCEL, operation.userData, CANCEL_DATA);
        }
    }

    private MemorySegment nextSqe() {
        try {
            return ring.nextSqe();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A request completed: the operation queues it (and its transport's callback joins the ready
     * queue); unless more completions follow, its slot is free again.
     */
    private void requestCompleted(long userData, int result, int flags) {
        int slot = (int) userData;
        RingOperation operation = inFlight[slot];
        if ((flags & IoUring.CQE_F_BUFFER) != 0) {
            buffers.taken();
        }
        if ((flags & IoUring.CQE_F_MORE) == 0) {
            inFlight[slot] = null;
            freeSlots[freeCount++] = slot;
            operation.userData = 0;
        }
        operation.completed(result, flags);
    }

    /** The task-run mode the ring was set up with (for tests and statistics). */
    TaskRunMode taskRunMode() {
        return ring.mode;
    }

    /** The number of proactor requests in flight (for tests). */
    public int requestsInFlight() {
        return slotsUsed - freeCount;
    }

    /** The number of channels watched now (for tests and statistics). */
    public int watchedCount() {
        return watched.size();
    }

    private void arm(Watch watch) throws IOException {
        if (watch.listener) {
            if (listeners == null) {
                listeners = new ListenerEpoll(arena);
            }
            listeners.watch(watch.fd(), toPoll(watch.ops()));
        } else {
            IoUring.preparePoll(ring.nextSqe(), watch.fd(), toPoll(watch.ops()), watch.userData());
        }
        watch.armed = true;
    }

    /**
     * Cancels the watch's poll if one is armed; its completion (if any comes) is stale from now on.
     * A listener leaves the listeners' epoll before this returns.
     */
    private void cancel(Watch watch) throws IOException {
        if (watch.armed) {
            if (watch.listener) {
                listeners.unwatch(watch.fd());
            } else {
                IoUring.preparePollRemove(ring.nextSqe(), watch.userData(), REMOVE_DATA);
            }
            watch.armed = false;
        }
        watch.generation++;
    }

    /** A closed channel's fd, reused by {@code watch}'s: the old one's poll must not keep the old file. */
    private void cancelReplaced(Watch watch) throws IOException {
        Watch stale = watched.replaced();
        if (stale != null && stale.isWatched() && stale != watch) {
            cancel(stale);
            watched.forget(stale);
        }
    }

    private static int toPoll(int ops) {
        return ((ops & READ) != 0 ? POLLIN : 0) | ((ops & WRITE) != 0 ? POLLOUT : 0);
    }

    // ---------------------------------------------------------------------------------------------
    // Waiting
    // ---------------------------------------------------------------------------------------------

    @Override
    public int select(long timeoutNanos, IoEventSink<? super Watch> sink) throws IOException {
        if (closed) {
            throw new ClosedChannelException();
        }
        prepareSends();
        rearmCompleted();
        if (!wakePollArmed) {
            IoUring.preparePoll(ring.nextSqe(), eventFd, POLLIN, WAKE_DATA);
            wakePollArmed = true;
        }
        if (listeners != null && listeners.isWatching() && !listenersPollArmed) {
            IoUring.preparePoll(ring.nextSqe(), listeners.fd, POLLIN, LISTENERS_DATA);
            listenersPollArmed = true;
        }
        if (++selects % SWEEP_EVERY == 0) {
            sweepClosed();
        }
        ring.submitAndWait(timeoutNanos);
        this.sink = sink;
        this.reported = 0;
        try {
            ring.reap(onCompletion);
        } finally {
            this.sink = null;
        }
        return reported;
    }

    private void onCompletion(long userData, int result, int flags) {
        if (userData == WAKE_DATA) {
            wakePollArmed = false;
            UringSys.read(eventFd, wakeDrain, 8); // reset the counter, or the next poll completes at once
            wakeups.rearm();
            return;
        }
        if (userData == LISTENERS_DATA) {
            listenersPollArmed = false; // armed again at the next select: level-triggered like the rest
            listeners.drain(onListenerReady);
            return;
        }
        if (userData == REMOVE_DATA || userData == CANCEL_DATA) {
            return;
        }
        if (userData < 0) {
            requestCompleted(userData, result, flags);
            return;
        }
        int fd = (int) (userData >>> 32);
        Watch watch = watched.get(fd);
        if (watch == null || !watch.isWatched() || watch.userData() != userData || !watch.armed) {
            return; // a cancelled poll's late completion
        }
        watch.armed = false;
        if (watched.forgetIfClosed(watch)) {
            return;
        }
        if (!watch.queuedForRearm) {
            watch.queuedForRearm = true;
            toRearm.add(watch);
        }
        // e.g. the file went away under the poll: wake both sides to see it
        report(watch, result < 0 ? POLLERR : result);
    }

    /** A listener the listeners' epoll found ready; it stays in the epoll, so nothing is armed again. */
    private void onListenerReady(int fd, int pollEvents) {
        Watch watch = watched.get(fd);
        if (watch == null || !watch.isWatched() || !watch.listener || !watch.armed) {
            return;
        }
        if (!watch.channel().isOpen()) {
            try {
                cancel(watch);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            watched.forget(watch);
            return;
        }
        report(watch, pollEvents);
    }

    /** As asyncio's selectors ({@link FdWatch#readyOps}): only what is asked for is reported. */
    private void report(Watch watch, int pollEvents) {
        if (FdWatches.reportReady(watch, pollEvents, sink)) {
            reported++;
        }
    }

    /** Every connection's sends of this iteration, each with all its transport queued in its chunk meanwhile. */
    private void prepareSends() {
        for (int i = 0, n = sendsToPrepare.size(); i < n; i++) {
            sendsToPrepare.get(i).prepareSend();
        }
        sendsToPrepare.clear();
    }

    /** Level-triggering: polls that completed are armed again while their channel is still watched. */
    private void rearmCompleted() throws IOException {
        for (int i = 0, n = toRearm.size(); i < n; i++) {
            Watch watch = toRearm.get(i);
            watch.queuedForRearm = false;
            if (!watch.armed && watch.ops() != 0 && watch.isWatched() && !watched.forgetIfClosed(watch)) {
                arm(watch);
            }
        }
        toRearm.clear();
    }

    /** Cancels the polls of channels closed while watched, so their files are released. */
    private void sweepClosed() throws IOException {
        for (int fd = 0, n = watched.capacity(); fd < n; fd++) {
            Watch watch = watched.get(fd);
            if (watch != null && watch.isWatched() && !watch.channel().isOpen()) {
                cancel(watch);
                watched.forget(watch);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Wake-up and closing
    // ---------------------------------------------------------------------------------------------

    @Override
    public void wakeup() {
        wakeups.wakeup();
    }

    @Override
    public void close() {
        if (!wakeups.close()) {
            return;
        }
        closed = true;
        ring.close(); // ends every armed poll and releases the files they held
        UringSys.close(eventFd);
        if (listeners != null) {
            listeners.close();
        }
        watched.clear();
        sendsToPrepare.clear();
        Arrays.fill(inFlight, null); // the ring is gone: no request will complete
        arena.close();
    }
}
