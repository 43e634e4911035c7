package io.jasyncio.uring;

import io.jasyncio.loop.spi.LoopContract;
import io.jasyncio.loop.spi.ReadyCallback;
import io.jasyncio.net.spi.Proactor;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * One request slot of a proactor transport on the ring: a receive into the provided buffers that goes on until cancelled, a receive into a
 * buffer or a send on one socket, at most one in flight. The poller holds it only while its
 * request is in flight (by the request's user data). Completions queue here, and the first one queues the transport's
 * callback on the loop, which then takes them all in order ({@link #nextCompletion}).
 */
final class RingOperation implements Proactor.Operation {
    /** MSG_NOSIGNAL: a send to a closed peer fails with EPIPE instead of raising SIGPIPE. */
    private static final int MSG_NOSIGNAL = 0x4000;
    /** MSG_WAITALL: on a stream socket the kernel keeps sending until every byte is out (or an error). */
    private static final int MSG_WAITALL = 0x100;
    private static final int ECANCELED = 125;
    private static final int ENOBUFS = 105;

    private final IoUringPoller poller;
    private final int fd;
    private final LoopContract loop;
    private final ReadyCallback callback;
    /** The user data of the request in flight; 0: none. */
    long userData;
    /** Completions not looked at yet: result and CQE flags, pairs in a ring of longs. */
    private long[] pending = new long[4];
    private int pendingHead;
    private int pendingCount;
    private boolean queued;
    private int result;
    private int flags;
    private int bufferToGive = -1;
    /**
     * The request in flight is part of a receive into the provided buffers that goes on until
     * cancelled ({@link #recvMultishot}).
     */
    private boolean providedBuffers;
    /** A send asked for and not yet submitted ({@link #prepareSend}); null: none. */
    private ByteBuffer toSend;
    /** The buffer a receive in flight writes into: kept reachable (its memory alive) until the request ends. */
    private ByteBuffer target;
    private boolean cancelRequested;

    RingOperation(IoUringPoller poller, int fd, LoopContract loop, Runnable onCompletion, io.jasyncio.context.Context context) {
        this.poller = poller;
        this.fd = fd;
        this.loop = loop;
        this.callback = loop.newReusableHandle(() -> {
            queued = false;
            try {
                onCompletion.run();
            } finally {
                while (nextCompletion()) {
                    // whatever the callback left (it threw): give the buffers back
                }
            }
        }, context);
    }

    /**
     * A receive that goes on until cancelled, as the kernel's multishot receive, but made of
     * one-shot receives of one provided buffer each, the next asked for as each completes (it
     * reaches the kernel with the loop's next {@code io_uring_enter}): a connection takes at most
     * one buffer per loop iteration, so what beats a cancel (pauseReading) is one buffer's worth.
     * The kernel's multishot receive takes all that waits in the socket at once, megabytes from a
     * peer that kept sending while the reading was paused, which the transport then had to hold.
     */
    @Override
    public void recvMultishot() {
        providedBuffers = true;
        cancelRequested = false;
        poller.submitRecvProvided(this, fd, false);
    }

    @Override
    public void recvInto(ByteBuffer target) {
        if (!target.isDirect()) {
            throw new IllegalArgumentException("the kernel needs a direct buffer");
        }
        providedBuffers = false;
        cancelRequested = false;
        this.target = target;
        poller.submitSocketIo(this, IoUring.OP_RECV, fd, MemorySegment.ofBuffer(target).address(), target.remaining(), 0);
    }

    /**
     * Sends {@code source}'s bytes from its position to its limit as they are when the loop next
     * enters the kernel, not as they are now: what the transport appends to the same chunk before
     * then (more writes in the same iteration) goes in the same request.
     */
    @Override
    public void send(ByteBuffer source) {
        if (!source.isDirect()) {
            throw new IllegalArgumentException("the kernel needs a direct buffer");
        }
        if (userData != 0 || toSend != null) {
            throw new IllegalStateException("a request is already in flight on this slot");
        }
        providedBuffers = false;
        cancelRequested = false;
        toSend = source;
        poller.sendBeforeNextEnter(this);
    }

    /** The poller's side, just before it enters the kernel: the send asked for, if still wanted, becomes a request. */
    void prepareSend() {
        ByteBuffer source = toSend;
        if (source == null) {
            return; // cancelled before it was asked of the kernel
        }
        toSend = null;
        poller.submitSocketIo(this, IoUring.OP_SEND, fd, MemorySegment.ofBuffer(source).address(), source.remaining(),
                MSG_NOSIGNAL | MSG_WAITALL);
    }

    @Override
    public void cancel() {
        if (toSend != null) {
            toSend = null; // never asked of the kernel: it ends here, as a cancelled request would
            cancelRequested = true;
            completed(-ECANCELED, 0);
            return;
        }
        if (userData != 0) {
            cancelRequested = true;
            poller.cancel(this);
        }
    }

    /**
     * The poller's side: a completion of this slot's request. A receive into the provided
     * buffers that brought bytes is asked for again (see {@link #recvMultishot}); one that ran
     * out of provided buffers is asked for again (the buffers come back as this iteration's
     * callbacks hand their bytes on) unless it was being cancelled.
     */
    void completed(int result, int flags) {
        if (providedBuffers && !cancelRequested) {
            if (result == -ENOBUFS) {
                poller.buffersRanOut();
                poller.submitRecvProvided(this, fd, false);
                return;
            }
            if (result > 0) {
                // the receive goes on (to the transport, more follow); an emptied socket is waited on first
                poller.submitRecvProvided(this, fd, (flags & IoUring.CQE_F_SOCK_NONEMPTY) == 0);
                flags |= IoUring.CQE_F_MORE;
            }
        }
        if ((flags & IoUring.CQE_F_MORE) == 0) {
            target = null; // the kernel is done with it
        }
        if (pendingCount == pending.length) {
            long[] grown = new long[pending.length * 2];
            for (int i = 0; i < pendingCount; i++) {
                grown[i] = pending[(pendingHead + i) % pending.length];
            }
            pending = grown;
            pendingHead = 0;
        }
        pending[(pendingHead + pendingCount) % pending.length] = ((long) flags << 32) | (result & 0xFFFF_FFFFL);
        pendingCount++;
        if (!queued) {
            queued = true;
            loop.enqueue(callback);
        }
    }

    @Override
    public boolean nextCompletion() {
        if (bufferToGive >= 0) {
            poller.giveBuffer(bufferToGive);
            bufferToGive = -1;
        }
        if (pendingCount == 0) {
            return false;
        }
        long c = pending[pendingHead];
        pendingHead = (pendingHead + 1) % pending.length;
        pendingCount--;
        result = (int) c;
        flags = (int) (c >>> 32);
        if ((flags & IoUring.CQE_F_BUFFER) != 0) {
            bufferToGive = flags >>> 16;
        }
        return true;
    }

    @Override
    public int result() {
        return result;
    }

    @Override
    public ByteBuffer received() {
        return bufferToGive >= 0 ? poller.bufferView(bufferToGive, Math.max(result, 0)) : null;
    }

    @Override
    public boolean more() {
        return (flags & IoUring.CQE_F_MORE) != 0;
    }

    @Override
    public boolean cancelled() {
        // a request asked to stop may also end on its own first (ENOBUFS, say): either way, cancelled
        return !more() && (result == -ECANCELED || result < 0 && cancelRequested);
    }
}
