package io.jasyncio.net;

import io.jasyncio.net.spi.Proactor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;

/**
 * The write side of a stream transport, written once for the socket transports (readiness and
 * completion) and the write end of a pipe: the write path, the bytes accepted and not yet sent,
 * the flow-control calls at the transport's marks, the end of writing ({@code writeEof}: the write
 * side shuts once the queue drains) and the end of the connection after {@code close()} once the
 * queue drains.
 *
 * <p>The write path, as asyncio's: a write with nothing queued goes to the channel at once; only
 * what it does not take is queued, then sent when the channel can take more. How queued bytes go
 * out is the one difference between the loops:
 * <ul>
 *   <li>on readiness ({@link #readiness}), into a {@link WriteBuffer}, written by a writer
 *       callback that is registered while the buffer holds bytes (asyncio's
 *       {@code _SelectorSocketTransport});</li>
 *   <li>by completion ({@link #completion}), into a {@link ProactorWriteQueue}, sent one chunk at
 *       a time by a send request (asyncio's {@code _ProactorBaseWritePipeTransport}): only a write
 *       of {@link #WRITE_AT_ONCE_MIN} or more goes to the socket at once (a smaller one is copied
 *       and sent by a ring request, which reaches the kernel in the loop's one
 *       {@code io_uring_enter} with every other connection's, instead of a system call of its
 *       own: bench/syscalls.sh); the queue counts the send in flight, so the marks see every byte
 *       the kernel has not yet reported sent.</li>
 * </ul>
 */
final class WriteQueue implements Runnable {
    /** On a completion loop, a write of at least this much with nothing queued or in flight goes to the socket at once (no copy). */
    static final int WRITE_AT_ONCE_MIN = 16 * 1024;

    private final ChannelTransport<?> transport;
    /** Where writes go at once and, on readiness, where the buffer is written. */
    private final WritableByteChannel out;
    /** Over a pipe (asyncio's words for its errors differ), not a socket. */
    private final boolean pipe;

    // on readiness: the buffer, written when the channel is writable (run(): this is the writer callback)
    private final WriteBuffer buffer;

    // by completion: the send slot and what waits to be sent are made at the first write that is
    // queued (an idle connection, or one whose writes all went at once, carries neither: about
    // 320 bytes, a quarter of an idle connection's heap, bench/idle-memory.sh)
    private final Proactor proactor;
    private Proactor.Operation sends;
    private ProactorWriteQueue queue;
    private boolean sending;

    /** writeEof was called: the write side shuts once the queue drains. */
    private boolean eof;

    private WriteQueue(ChannelTransport<?> transport, WritableByteChannel out, WriteBuffer buffer, Proactor proactor) {
        this.transport = transport;
        this.out = out;
        this.buffer = buffer;
        this.proactor = proactor;
        this.pipe = !(transport.channel instanceof SocketChannel);
    }

    /**
     * A queue that writes on readiness: into {@code out} (the transport's channel, or a view of it
     * that takes less per write), buffering in {@code buffer}.
     */
    static WriteQueue readiness(ChannelTransport<?> transport, WritableByteChannel out, WriteBuffer buffer) {
        return new WriteQueue(transport, out, buffer, null);
    }

    /** A queue that sends by completion, through {@code proactor}, on the transport's socket. */
    static WriteQueue completion(ChannelTransport<SocketChannel> transport, Proactor proactor) {
        return new WriteQueue(transport, transport.channel, null, proactor);
    }

    /** asyncio's words for a failed write on this kind of transport. */
    private String writeError() {
        return pipe ? "Fatal write error on pipe transport" : "Fatal write error on socket transport";
    }

    // ---- the write path -----------------------------------------------------------------------

    /** Transport.write: at once when nothing waits, else queued (past the high water mark, the protocol pauses). */
    void write(ByteBuffer data) {
        if (eof) {
            throw new IllegalStateException("Cannot call write() after write_eof()");
        }
        if (!data.hasRemaining()) {
            return;
        }
        if (transport.connLost > 0) {
            transport.dropWriteAfterConnectionLost(pipe ? WritePipeTransport.LOST_WARNING
                    : "socket.send() raised exception.");
            return;
        }
        if (proactor == null) {
            if (buffer.isEmpty()) {
                if (!writeAtOnce(data) || !data.hasRemaining()) {
                    return;
                }
                transport.loop.addWriter(transport.channel, this);
            }
            buffer.append(data);
        } else {
            if (!sending && size() == 0 && data.remaining() >= WRITE_AT_ONCE_MIN
                    && (!writeAtOnce(data) || !data.hasRemaining())) {
                return;
            }
            if (queue == null) {
                queue = new ProactorWriteQueue(DirectChunks.sizesOf(transport.loop));
                sends = proactor.newOperation((SocketChannel) transport.channel, this::sendCompleted);
            }
            queue.append(data);
            if (!sending) {
                send();
            }
        }
        transport.pauseProtocolIfAboveHigh();
    }

    /** Writes what the channel takes now; false when the write failed (fatal to the transport). */
    private boolean writeAtOnce(ByteBuffer data) {
        try {
            out.write(data);
            return true;
        } catch (IOException e) {
            transport.fatalError(e, writeError());
            return false;
        }
    }

    /** On readiness, the writer callback: the channel can take more. */
    @Override
    public void run() {
        if (transport.connLost > 0) {
            return;
        }
        try {
            buffer.flushTo(out);
        } catch (IOException e) {
            transport.loop.removeWriter(transport.channel);
            buffer.clear();
            transport.fatalError(e, writeError());
            return;
        }
        transport.resumeProtocolIfAtLow(); // may write more: look at the buffer only after it
        if (!buffer.isEmpty()) {
            return;
        }
        transport.loop.removeWriter(transport.channel);
        drained();
    }

    /** By completion: asks the kernel to send the head chunk. */
    private void send() {
        sending = true;
        sends.send(queue.head());
    }

    private void sendCompleted() {
        while (sends.nextCompletion()) {
            sendCompleted(sends.result());
        }
    }

    private void sendCompleted(int n) {
        sending = false;
        queue.sendCompleted(n);
        if (transport.connLost > 0) {
            return;
        }
        if (n < 0) {
            transport.fatalError(proactor.errorOf(n), writeError());
            return;
        }
        if (!queue.isEmpty()) {
            send();
        }
        transport.resumeProtocolIfAtLow(); // may write more: look at the queue only after it
        if (queue.isEmpty()) {
            drained();
        }
    }

    /**
     * Everything queued is out: after {@code close()}, the connection is lost (by completion soon,
     * as asyncio's proactor: the channel closes only after the loop's next wait); after
     * {@code writeEof}, the write side shuts. Not when the protocol's resumeWriting, just called,
     * closed with nothing queued (then the connection is being lost already).
     */
    private void drained() {
        if (transport.connLost > 0) {
            return;
        }
        if (transport.closing) {
            if (proactor == null) {
                transport.writesDrainedWhileClosing();
            } else {
                transport.loseSoon();
            }
        } else if (eof) {
            shutdownOutput();
        }
    }

    // ---- the end of writing -------------------------------------------------------------------

    /** Transport.writeEof: the write side shuts once the queued writes are out (asyncio's write_eof). */
    void writeEof() {
        if (transport.closing || eof) {
            return;
        }
        eof = true;
        if (size() == 0) {
            shutdownOutput();
        }
    }

    /** Shuts the write side of the socket now (a failure is fatal to the transport). */
    private void shutdownOutput() {
        try {
            ((SocketChannel) transport.channel).shutdownOutput();
        } catch (IOException e) {
            transport.fatalError(e, "Fatal error on shutdown of the write side");
        }
    }

    // ---- what the transport asks ----------------------------------------------------------------

    /** Bytes accepted and not yet sent (by completion, the send in flight included). */
    long size() {
        return proactor == null ? buffer.size() : queue == null ? 0 : queue.size();
    }

    /** Drops every queued write (on abort or a fatal error); a send in flight is cancelled. */
    void discard() {
        if (proactor == null) {
            buffer.clear();
            return;
        }
        if (sending) {
            sends.cancel();
        }
        if (queue != null) {
            queue.clear(sending);
        }
    }

    /** The channel is closed: a send still in flight is cancelled (it holds the socket until it ends). */
    void connectionLost() {
        if (sending) {
            sends.cancel();
        }
    }
}
