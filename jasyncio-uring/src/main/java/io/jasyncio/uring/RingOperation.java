package io.jasyncio.uring;

import io.jasyncio.loop.Handle;
import io.jasyncio.loop.LoopContract;
import io.jasyncio.net.Proactor;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * One request slot of a proactor transport on the ring: a receive or a send on one socket, at
 * most one in flight. The poller holds it only while its request is in flight (by the request's
 * user data), and on completion queues its handle on the loop.
 */
final class RingOperation implements Proactor.Operation {
    /** MSG_NOSIGNAL: a send to a closed peer fails with EPIPE instead of raising SIGPIPE. */
    private static final int MSG_NOSIGNAL = 0x4000;
    /** MSG_WAITALL: on a stream socket the kernel keeps sending until every byte is out (or an error). */
    private static final int MSG_WAITALL = 0x100;

    private final IoUringPoller poller;
    private final int fd;
    final LoopContract loop;
    final Handle completion;
    /** The user data of the request in flight; 0: none. */
    long userData;
    int result;

    RingOperation(IoUringPoller poller, int fd, LoopContract loop, Handle completion) {
        this.poller = poller;
        this.fd = fd;
        this.loop = loop;
        this.completion = completion;
    }

    @Override
    public void recv(ByteBuffer target) {
        poller.submitSocketIo(this, IoUring.OP_RECV, fd, addressOf(target), target.remaining(), 0);
    }

    @Override
    public void send(ByteBuffer source) {
        poller.submitSocketIo(this, IoUring.OP_SEND, fd, addressOf(source), source.remaining(), MSG_NOSIGNAL | MSG_WAITALL);
    }

    /** Where the buffer's position is in memory (it must be direct). */
    private static long addressOf(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("the kernel needs a direct buffer");
        }
        return MemorySegment.ofBuffer(buffer).address();
    }

    @Override
    public void cancel() {
        poller.cancel(this);
    }

    @Override
    public int result() {
        return result;
    }
}
