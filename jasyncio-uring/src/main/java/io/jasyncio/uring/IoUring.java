package io.jasyncio.uring;

import io.jasyncio.nativeio.Downcalls;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * One io_uring instance, driven straight through its shared rings: the submission queue (SQ),
 * where the loop writes requests (SQEs) and publishes them by moving the tail, and the completion
 * queue (CQ), where the kernel posts results (CQEs) for the loop to consume by moving the head.
 * One {@code io_uring_enter} per loop iteration both submits what was queued and waits for the
 * first completion, with the loop's timeout ({@code IORING_ENTER_EXT_ARG}). Loop thread only.
 *
 * <p>Layouts and offsets are those of {@code <linux/io_uring.h>} (stable kernel ABI).
 */
final class IoUring implements AutoCloseable {
    static final byte OP_POLL_ADD = 6;
    static final byte OP_POLL_REMOVE = 7;
    static final byte OP_ASYNC_CANCEL = 14;
    static final byte OP_SEND = 26;
    static final byte OP_RECV = 27;
    /** CQE flags: the completion used a provided buffer (its id in the upper 16 bits); more completions follow. */
    static final int CQE_F_BUFFER = 1;
    static final int CQE_F_MORE = 2;
    /** CQE flag of a receive (5.19+): the socket still had bytes when it completed. */
    static final int CQE_F_SOCK_NONEMPTY = 4;
    private static final int REGISTER_PBUF_RING = 22;
    private static final int REGISTER_ENABLE_RINGS = 12;
    static final int SETUP_R_DISABLED = 1 << 6;
    static final int SETUP_COOP_TASKRUN = 1 << 8;
    static final int SETUP_TASKRUN_FLAG = 1 << 9;
    static final int SETUP_SINGLE_ISSUER = 1 << 12;
    static final int SETUP_DEFER_TASKRUN = 1 << 13;
    /** SQ ring flag (with {@link #SETUP_TASKRUN_FLAG}): task work is waiting for the next entry. */
    private static final int SQ_TASKRUN = 1 << 2;
    private static final byte SQE_BUFFER_SELECT = 1 << 5;
    /** A receive's ioprio flag (5.19+): wait for readiness before trying, the socket being known empty. */
    private static final short RECVSEND_POLL_FIRST = 1;

    private static final int ENTER_GETEVENTS = 1;
    private static final int ENTER_EXT_ARG = 8;
    private static final int FEAT_SINGLE_MMAP = 1;
    private static final int FEAT_EXT_ARG = 1 << 8;
    private static final long OFF_SQ_RING = 0L;
    private static final long OFF_CQ_RING = 0x8000000L;
    private static final long OFF_SQES = 0x10000000L;
    private static final long SQE_SIZE = 64;
    private static final long CQE_SIZE = 16;
    private static final long PARAMS_SIZE = 120;
    /** struct io_uring_getevents_arg: sigmask, sigmask_sz, min_wait_usec, ts. */
    private static final long GETEVENTS_ARG_SIZE = 24;

    private static final VarHandle INT = JAVA_INT.varHandle();

    private final Arena arena = Arena.ofShared(); // made on one thread, used on the loop's
    private final Downcalls.Errno errno = new Downcalls.Errno(arena);
    private final MemorySegment timespec = arena.allocate(16, 8);
    private final MemorySegment waitArg = arena.allocate(GETEVENTS_ARG_SIZE, 8);
    final int fd;
    private final MemorySegment sqRing;
    private final MemorySegment cqRing; // the same mapping as sqRing with FEAT_SINGLE_MMAP
    private final MemorySegment sqes;
    private final long sqHead, sqTail, sqFlags, sqArray, cqHead, cqTail, cqes;
    /** The task-run mode the kernel accepted (the asked one, or a weaker one it fell back to). */
    final TaskRunMode mode;
    /** With {@link TaskRunMode#bindsThread()}: the thread that enabled the ring, the only one that may enter it. */
    private volatile Thread owner;
    private final int sqMask, sqEntries, cqMask;
    private int sqTailLocal;
    private int unsubmitted;
    private boolean closed;

    /** A completion, as {@link #reap} hands it over. */
    @FunctionalInterface
    interface CompletionSink {
        void onCompletion(long userData, int result, int flags);
    }

    IoUring(int entries) throws IOException {
        this(entries, TaskRunMode.configured());
    }

    /** A ring set up for {@code asked}, or the strongest weaker mode the kernel accepts. */
    IoUring(int entries, TaskRunMode asked) throws IOException {
        this(entries, asked, 0);
    }

    /** As above; {@code refusedForTest} is added to the first attempt's flags (tests force the fallback with an unknown bit). */
    IoUring(int entries, TaskRunMode asked, int refusedForTest) throws IOException {
        MemorySegment params = arena.allocate(PARAMS_SIZE, 8);
        TaskRunMode tried = asked;
        int ringFd;
        while (true) {
            params.fill((byte) 0);
            params.set(JAVA_INT, 8, tried.setupFlags | (tried == asked ? refusedForTest : 0));
            ringFd = UringSys.ioUringSetup(errno, entries, params);
            if (ringFd >= 0 || errno.value() != UringSys.EINVAL || tried.weaker() == null) {
                break;
            }
            tried = tried.weaker(); // this kernel does not know the flags: the next weaker mode
        }
        if (ringFd < 0) {
            int e = errno.value();
            arena.close();
            throw new IOException("io_uring_setup failed: " + UringSys.describe(e));
        }
        this.mode = tried;
        this.fd = ringFd;
        try {
            int features = params.get(JAVA_INT, 20);
            if ((features & FEAT_EXT_ARG) == 0) {
                throw new IOException("this kernel's io_uring cannot wait with a timeout (IORING_FEAT_EXT_ARG, Linux 5.11+)");
            }
            sqEntries = params.get(JAVA_INT, 0);
            int cqEntries = params.get(JAVA_INT, 4);
            long sqOff = 40;
            long cqOff = 80;
            sqHead = params.get(JAVA_INT, sqOff);
            sqTail = params.get(JAVA_INT, sqOff + 4);
            sqFlags = params.get(JAVA_INT, sqOff + 16);
            long sqMaskAt = params.get(JAVA_INT, sqOff + 8); // the offsets say where the masks are in the rings
            sqArray = params.get(JAVA_INT, sqOff + 24);
            cqHead = params.get(JAVA_INT, cqOff);
            cqTail = params.get(JAVA_INT, cqOff + 4);
            long cqMaskAt = params.get(JAVA_INT, cqOff + 8);
            cqes = params.get(JAVA_INT, cqOff + 20);
            long sqSize = sqArray + (long) sqEntries * 4;
            long cqSize = cqes + (long) cqEntries * CQE_SIZE;
            if ((features & FEAT_SINGLE_MMAP) != 0) {
                sqRing = map(Math.max(sqSize, cqSize), OFF_SQ_RING);
                cqRing = sqRing;
            } else {
                sqRing = map(sqSize, OFF_SQ_RING);
                cqRing = map(cqSize, OFF_CQ_RING);
            }
            sqes = map((long) sqEntries * SQE_SIZE, OFF_SQES);
            sqMask = sqRing.get(JAVA_INT, sqMaskAt);
            cqMask = cqRing.get(JAVA_INT, cqMaskAt);
            sqTailLocal = (int) INT.getAcquire(sqRing, sqTail);
            waitArg.set(JAVA_LONG, 0, 0L);             // no signal mask
            waitArg.set(JAVA_INT, 8, 0);
            waitArg.set(JAVA_INT, 12, 0);
            waitArg.set(JAVA_LONG, 16, timespec.address());
        } catch (IOException | RuntimeException e) {
            UringSys.close(ringFd);
            arena.close();
            throw e;
        }
    }

    private MemorySegment map(long size, long offset) throws IOException {
        MemorySegment m = UringSys.mmap(errno, size, fd, offset);
        if (m == null) {
            throw new IOException("mmap of the io_uring rings failed: " + UringSys.describe(errno.value()));
        }
        return m;
    }

    /**
     * A zeroed submission entry to fill in, queued for the next {@link #submitAndWait}. When the
     * queue is full, what is queued is submitted first to make room; if the kernel takes none of
     * it (its completion queue is backed up), that is an error, never an overwritten request.
     */
    MemorySegment nextSqe() throws IOException {
        if (sqFull()) {
            submitAndWait(0);
            if (sqFull()) {
                throw new IOException("io_uring submission queue full: the kernel took none of " + unsubmitted
                        + " queued requests (its completion queue is backed up)");
            }
        }
        int index = sqTailLocal & sqMask;
        MemorySegment sqe = sqes.asSlice(index * SQE_SIZE, SQE_SIZE).fill((byte) 0);
        sqRing.set(JAVA_INT, sqArray + index * 4L, index);
        sqTailLocal++;
        unsubmitted++;
        return sqe;
    }

    private boolean sqFull() {
        return sqTailLocal - (int) INT.getAcquire(sqRing, sqHead) >= sqEntries;
    }

    /** Fills {@code sqe} as a one-shot poll of {@code targetFd} for {@code pollEvents}. */
    static void preparePoll(MemorySegment sqe, int targetFd, int pollEvents, long userData) {
        sqe.set(JAVA_BYTE, 0, OP_POLL_ADD);
        sqe.set(JAVA_INT, 4, targetFd);
        sqe.set(JAVA_INT, 28, pollEvents);
        sqe.set(JAVA_LONG, 32, userData);
    }

    /**
     * Fills {@code sqe} as a receive on {@code targetFd} of at most one buffer, which the kernel
     * picks from the provided-buffer group {@code group} once bytes are there; {@code pollFirst}:
     * the socket is known empty, so the kernel waits for readiness without trying first.
     */
    static void prepareRecvProvided(MemorySegment sqe, int targetFd, short group, boolean pollFirst, long userData) {
        sqe.set(JAVA_BYTE, 0, OP_RECV);
        sqe.set(JAVA_BYTE, 1, SQE_BUFFER_SELECT);
        sqe.set(JAVA_SHORT, 2, pollFirst ? RECVSEND_POLL_FIRST : 0);
        sqe.set(JAVA_INT, 4, targetFd);
        sqe.set(JAVA_LONG, 32, userData);
        sqe.set(JAVA_SHORT, 40, group);
    }

    /**
     * With a mode that binds the ring to a thread: the first caller enables the ring (made with
     * {@code IORING_SETUP_R_DISABLED}, so the thread that constructs a loop need not be the one
     * that runs it) and owns it from then on; any other thread is refused with a clear error
     * rather than the kernel's {@code EEXIST}.
     */
    private void checkOwner() throws IOException {
        if (!mode.bindsThread()) {
            return;
        }
        Thread current = Thread.currentThread();
        Thread bound = owner;
        if (bound == current) {
            return;
        }
        if (bound != null) {
            throw new IllegalStateException("this io_uring loop's ring belongs to thread \"" + bound.getName()
                    + "\", which first ran it (-D" + TaskRunMode.PROPERTY + "=defer binds a ring to one thread);"
                    + " it cannot be run from \"" + current.getName() + "\". Run it from \"" + bound.getName()
                    + "\", or use -D" + TaskRunMode.PROPERTY + "=coop or off");
        }
        if (UringSys.ioUringRegister(errno, fd, REGISTER_ENABLE_RINGS, MemorySegment.NULL, 0) < 0) {
            throw new IOException("enabling the io_uring ring failed: " + UringSys.describe(errno.value()));
        }
        owner = current;
    }

    /** Registers a provided-buffer ring ({@code struct io_uring_buf_reg} in {@code registration}). */
    void registerBufferRing(MemorySegment registration) throws IOException {
        checkOwner();
        if (UringSys.ioUringRegister(errno, fd, REGISTER_PBUF_RING, registration, 1) < 0) {
            throw new IOException("registering a provided-buffer ring failed: " + UringSys.describe(errno.value()));
        }
    }

    /** Fills {@code sqe} to cancel the poll submitted with {@code targetUserData}. */
    static void preparePollRemove(MemorySegment sqe, long targetUserData, long userData) {
        prepareCancel(sqe, OP_POLL_REMOVE, targetUserData, userData);
    }

    /**
     * Fills {@code sqe} as a receive ({@link #OP_RECV}) or send ({@link #OP_SEND}) of {@code length}
     * bytes at {@code address} on the socket {@code targetFd}, with {@code msgFlags} (MSG_*).
     */
    static void prepareSocketIo(MemorySegment sqe, byte opcode, int targetFd, long address, int length, int msgFlags,
                                long userData) {
        sqe.set(JAVA_BYTE, 0, opcode);
        sqe.set(JAVA_INT, 4, targetFd);
        sqe.set(JAVA_LONG, 16, address);
        sqe.set(JAVA_INT, 24, length);
        sqe.set(JAVA_INT, 28, msgFlags);
        sqe.set(JAVA_LONG, 32, userData);
    }

    /**
     * Fills {@code sqe} to cancel the request submitted with {@code targetUserData}: a poll
     * ({@link #OP_POLL_REMOVE}) or any kind ({@link #OP_ASYNC_CANCEL}).
     */
    static void prepareCancel(MemorySegment sqe, byte opcode, long targetUserData, long userData) {
        sqe.set(JAVA_BYTE, 0, opcode);
        sqe.set(JAVA_INT, 4, -1);
        sqe.set(JAVA_LONG, 16, targetUserData);
        sqe.set(JAVA_LONG, 32, userData);
    }

    /**
     * Submits what is queued and waits for at least one completion, at most {@code timeoutNanos}
     * (0: does not wait; -1: until one arrives). Returns once completions may be reaped; a signal
     * or the timeout passing is not an error.
     */
    void submitAndWait(long timeoutNanos) throws IOException {
        checkOwner();
        INT.setRelease(sqRing, sqTail, sqTailLocal);
        boolean deferredWork = mode != TaskRunMode.OFF && (sqRing.get(JAVA_INT, sqFlags) & SQ_TASKRUN) != 0;
        if (timeoutNanos == 0 && unsubmitted == 0 && !deferredWork) {
            return; // nothing to submit, no waiting: the completion queue can be read as it is
        }
        // Deferred or cooperative task work runs only when the loop enters with GETEVENTS.
        int flags = mode != TaskRunMode.OFF ? ENTER_GETEVENTS : 0;
        int minComplete = 0;
        MemorySegment arg = MemorySegment.NULL;
        long argSize = 0;
        if (timeoutNanos != 0) {
            flags = ENTER_GETEVENTS;
            minComplete = 1;
            if (timeoutNanos > 0) {
                timespec.set(JAVA_LONG, 0, timeoutNanos / 1_000_000_000L);
                timespec.set(JAVA_LONG, 8, timeoutNanos % 1_000_000_000L);
                flags |= ENTER_EXT_ARG;
                arg = waitArg;
                argSize = GETEVENTS_ARG_SIZE;
            }
        }
        int submitted = UringSys.ioUringEnter(errno, fd, unsubmitted, minComplete, flags, arg, argSize);
        if (submitted >= 0) {
            unsubmitted -= submitted;
            return;
        }
        int e = errno.value();
        // ETIME: the timeout passed; EINTR: a signal; EBUSY/EAGAIN: the completion queue is full
        // (the caller reaps, and the next call submits): each only means "look again".
        if (e != UringSys.ETIME && e != UringSys.EINTR && e != UringSys.EAGAIN && e != UringSys.EBUSY) {
            throw new IOException("io_uring_enter failed: " + UringSys.describe(e));
        }
    }

    /** Hands every posted completion to {@code sink} and frees its slot. Returns how many. */
    int reap(CompletionSink sink) {
        int head = (int) INT.getAcquire(cqRing, cqHead);
        int tail = (int) INT.getAcquire(cqRing, cqTail);
        int n = 0;
        while (head != tail) {
            long at = cqes + (head & cqMask) * CQE_SIZE;
            long userData = cqRing.get(JAVA_LONG, at);
            int result = cqRing.get(JAVA_INT, at + 8);
            int flags = cqRing.get(JAVA_INT, at + 12);
            head++;
            INT.setRelease(cqRing, cqHead, head); // the slot may be reused from here on
            n++;
            sink.onCompletion(userData, result, flags);
        }
        return n;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        UringSys.munmap(sqes);
        if (cqRing != sqRing) {
            UringSys.munmap(cqRing);
        }
        UringSys.munmap(sqRing);
        UringSys.close(fd);
        arena.close();
    }
}
