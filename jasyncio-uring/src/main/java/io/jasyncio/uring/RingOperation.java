package io.jasyncio.uring;

import io.jasyncio.loop.Handle;
import io.jasyncio.loop.LoopContract;
import io.jasyncio.net.Proactor;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * One request slot of a proactor transport on the ring: a multishot receive, a receive into a
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
    private final Handle callback;
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
    private boolean multishot;
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

    @Override
    public void recvMultishot() {
        multishot = true;
        cancelRequested = false;
        poller.submitRecvMultishot(this, fd);
    }

    @Override
    public void recvInto(ByteBuffer target) {
        if (!target.isDirect()) {
            throw new IllegalArgumentException("the kernel needs a direct buffer");
        }
        multishot = false;
        cancelRequested = false;
        this.target = target;
        poller.submitSocketIo(this, IoUring.OP_RECV, fd, MemorySegment.ofBuffer(target).address(), target.remaining(), 0);
    }

    @Override
    public void send(ByteBuffer source) {
        if (!source.isDirect()) {
            throw new IllegalArgumentException("the kernel needs a direct buffer");
        }
        multishot = false;
        cancelRequested = false;
        poller.submitSocketIo(this, IoUring.OP_SEND, fd, MemorySegment.ofBuffer(source).address(), source.remaining(),
                MSG_NOSIGNAL | MSG_WAITALL);
    }

    @Override
    public void cancel() {
        if (userData != 0) {
            cancelRequested = true;
            poller.cancel(this);
        }
    }

    /**
     * The poller's side: a completion of this slot's request. A multishot receive that ran out
     * of provided buffers is asked for again (the buffers come back as this iteration's
     * callbacks hand their bytes on) unless it was being cancelled.
     */
    void completed(int result, int flags) {
        if (result == -ENOBUFS && multishot && !cancelRequested) {
            poller.submitRecvMultishot(this, fd);
            return;
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
