package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.net.spi.Proactor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * A stream transport (TCP or Unix domain) whose reads and writes are requests to a
 * completion-based loop ({@link Proactor}), as asyncio's {@code _ProactorSocketTransport}: no
 * readiness round trip, and the requests of a whole loop iteration reach the kernel together.
 *
 * <p>Reads: one multishot receive is in flight, and the loop completes it once per arrival,
 * into a buffer of its own; the bytes go to the protocol straight from there (into the protocol's
 * own buffers for a {@link BufferedProtocol}, as many as it takes). A {@link StreamReader} of bulk
 * data (a direct buffer) instead lends its free room, and one receive at a time lands there, no
 * copy (see {@code StreamReader.lendRoom}); the next is asked for once the task the bytes woke has
 * read them. {@code pauseReading} cancels the receive; what arrives before the cancel takes effect
 * (or the end of the stream) is held (copied) and delivered after {@code resumeReading}, which
 * asks for a receive again. Writes: a large write with nothing queued or in flight goes to the
 * socket at once, as on the readiness transport; what it does not take, small writes, and every write behind it, are
 * copied into the {@link ProactorWriteQueue} and sent one chunk at a time; the queue counts the send in flight, so {@code getWriteBufferSize}
 * and the high/low water marks see every byte the kernel has not yet reported sent.
 * {@code writeEof} shuts the write side once the queue drains. Closing asks the kernel to cancel
 * what is in flight; the channel closes on {@code connectionLost}, one loop turn after anything
 * was asked for (every request has reached the kernel, which then holds the socket until the
 * request ends).
 */
final class ProactorSocketTransport extends StreamSocketTransport {
    /**
     * The classes a connection needs, loaded with this one (the loop loads it when it starts): a
     * first connection accepted when no descriptor is left could not open their class files.
     */
    static final List<Class<?>> HELPERS = List.of(ProactorWriteQueue.class, WriteFlowControl.class, LendingProtocol.class,
            Receive.class, StreamEnd.class);

    /** At most this much of what was held during a pause goes to the protocol in one call. */
    private static final int HELD_SLICE = 32 * 1024;
    /**
     * A write of at least this much, with nothing queued or in flight, goes to the socket at once
     * (no copy); a smaller one is copied and sent by a ring request, which reaches the kernel in
     * the loop's one {@code io_uring_enter} with every other connection's, instead of a system
     * call of its own (bench/syscalls.sh: one {@code write} per message otherwise).
     */
    static final int WRITE_AT_ONCE_MIN = 16 * 1024;

    private final Proactor proactor;
    private final Proactor.Operation reads;
    /**
     * The send slot and what waits to be sent, made at the first write that is queued: an idle
     * connection, or one whose writes all went to the socket at once, carries neither (about
     * 320 bytes, a quarter of an idle connection's heap: bench/idle-memory.sh).
     */
    private Proactor.Operation writes;
    private ProactorWriteQueue queue;

    /** What the read side has asked the kernel for. */
    private enum Receive {
        /** Nothing in flight, none due. */
        NONE,
        /** Nothing in flight; a receive is asked for once the callbacks queued meanwhile ran (see receiveSoon). */
        SOON,
        /** A multishot receive into the loop's buffers. */
        MULTISHOT,
        /** A multishot receive, cancelled to switch to receives into the reader's room. */
        ENDING_MULTISHOT,
        /** One receive into the room a {@link LendingProtocol} lent ({@link #room}). */
        INTO_ROOM;

        boolean inFlight() {
            return compareTo(MULTISHOT) >= 0;
        }
    }

    /** Where the end of the stream is. */
    private enum StreamEnd {
        /** Not arrived. */
        NOT_YET,
        /** Arrived during a pause (after what is held): handed on at resumeReading. */
        HELD,
        /** Handed to the protocol (eofReceived): nothing more is received. */
        DELIVERED
    }

    private Receive receive = Receive.NONE;
    private StreamEnd streamEnd = StreamEnd.NOT_YET;
    private boolean sending;
    /** Bytes that arrived after pauseReading (write mode), delivered on resumeReading; null: none. */
    private ByteBuffer held;
    /** The room the receive in flight fills, and the protocol that lent it; null unless {@link Receive#INTO_ROOM}. */
    private ByteBuffer room;
    private LendingProtocol roomLender;
    private final Runnable receiveIfDue = this::receiveIfDue;

    ProactorSocketTransport(EventLoop loop, Proactor proactor, SocketChannel channel, BaseProtocol protocol,
                            Future<Void> waiter, Server server) {
        super(loop, channel, protocol, waiter, server);
        this.proactor = proactor;
        this.reads = proactor.newOperation(channel, this::receiveCompleted);
    }

    @Override
    void startReading() {
        receive();
    }

    // ---- reading ----------------------------------------------------------------------------

    private void receive() {
        LendingProtocol lender = lender();
        ByteBuffer into = lender == null ? null : lender.lendRoom();
        if (into != null) {
            receive = Receive.INTO_ROOM;
            room = into;
            roomLender = lender;
            reads.recvInto(into);
        } else {
            receive = Receive.MULTISHOT;
            reads.recvMultishot();
        }
    }

    /** Whether a new receive is due: none in flight, reading, nothing held back, no end yet. */
    private boolean receiveDue() {
        return !receive.inFlight() && isReading() && streamEnd == StreamEnd.NOT_YET && connLost == 0 && held == null;
    }

    /**
     * Asks for the next receive once the callbacks queued meanwhile ran: a task woken by the
     * bytes just delivered reads them first, so a reader lends its whole room, not what is left.
     */
    private void receiveSoon() {
        if (receive == Receive.NONE) {
            receive = Receive.SOON;
            loop.callSoon(receiveIfDue);
        }
    }

    private void receiveIfDue() {
        if (receive == Receive.SOON) {
            receive = Receive.NONE;
        }
        if (receiveDue()) {
            receive();
        }
    }

    /** The receive's completions, in order: bytes, the end of the stream, an error, or its end. */
    private void receiveCompleted() {
        while (reads.nextCompletion()) {
            int n = reads.result();
            ByteBuffer lentRoom = room;
            LendingProtocol lender = roomLender;
            if (!reads.more()) {
                receive = Receive.NONE;
                room = null;
                roomLender = null;
            }
            if (closing || connLost > 0 || reads.cancelled()) {
                // asyncio's close() cancels the read: what comes now is dropped
            } else if (n < 0) {
                fatalError(proactor.errorOf(n), "Fatal read error on socket transport");
            } else if (readingPaused || held != null || streamEnd == StreamEnd.HELD) {
                hold(received(n, lentRoom)); // after what is held already, in order (null: the end of the stream)
            } else if (n == 0) {
                streamEnd = StreamEnd.DELIVERED;
                readEof();
            } else if (lentRoom != null && lender == streamProtocol) {
                receivedInPlace(lender, lentRoom, n);
                continue; // the room was filled, not returned
            } else {
                deliver(received(n, lentRoom)); // also bytes in the room of a reader whose protocol was replaced meanwhile
            }
            if (lentRoom != null) {
                lender.lentRoomReturned(lentRoom);
            } else if (receive == Receive.MULTISHOT && isReading() && lender() != null && lender().canLendRoom()) {
                receive = Receive.ENDING_MULTISHOT;
                reads.cancel(); // the reader now takes receives in place: end the multishot one
            }
        }
        if (receiveDue()) {
            receiveSoon(); // after a receive into a room, or one cancelled by pauseReading that ended after resumeReading
        }
    }

    /** A completion's bytes: in the provided buffer, or in the lent room; null at the end of the stream. */
    private ByteBuffer received(int n, ByteBuffer lentRoom) {
        return n == 0 ? null : lentRoom == null ? reads.received() : lentRoom.slice(0, n);
    }

    /** {@code n} bytes arrived in the room the reader lent: fed where they are, no copy. */
    private void receivedInPlace(LendingProtocol lender, ByteBuffer lentRoom, int n) {
        try {
            lender.lentRoomFilled(lentRoom, n);
        } catch (Throwable t) {
            fatalError(t, "Fatal error: protocol.data_received() call failed.");
        }
    }

    /**
     * Keeps (a copy of) what arrived after pauseReading, before the receive's cancel took effect
     * (null: the end of the stream).
     */
    private void hold(ByteBuffer data) {
        if (data == null) {
            streamEnd = StreamEnd.HELD;
            return;
        }
        if (held == null) {
            held = ByteBuffer.allocate(Math.max(data.remaining(), 16 * 1024));
        } else if (held.remaining() < data.remaining()) {
            held = ByteBuffer.allocate(Math.max(held.capacity() * 2, held.position() + data.remaining()))
                    .put(held.flip());
        }
        held.put(data);
    }

    /**
     * Hands the held bytes to the protocol a receive's worth at a time, while it keeps reading (so
     * an echo that pauses reading when its writes back up is not handed all of them at once);
     * returns whether all went.
     */
    private boolean deliverHeld() {
        ByteBuffer data = held.flip();
        while (data.hasRemaining()) {
            int n = Math.min(data.remaining(), HELD_SLICE);
            ByteBuffer slice = data.slice(data.position(), n);
            data.position(data.position() + n);
            deliver(slice);
            if ((!isReading() || connLost > 0) && data.hasRemaining()) {
                held = data.compact();
                return false;
            }
        }
        held = null;
        return isReading() && connLost == 0;
    }

    /** Hands received bytes to the protocol (for a BufferedProtocol, into its own buffers). */
    private void deliver(ByteBuffer data) {
        if (streamProtocol != null) {
            try {
                streamProtocol.dataReceived(data);
            } catch (Throwable t) {
                fatalError(t, "Fatal error: protocol.data_received() call failed.");
            }
        } else {
            feedBufferedProtocol(data);
        }
    }

    /** asyncio's {@code _feed_data_to_buffered_proto}: as many getBuffer/bufferUpdated rounds as the bytes need. */
    private void feedBufferedProtocol(ByteBuffer data) {
        while (data.hasRemaining() && connLost == 0) {
            ByteBuffer target;
            try {
                target = bufferedProtocol.getBuffer(data.remaining());
                if (target == null || !target.hasRemaining()) {
                    throw new IllegalStateException("get_buffer() returned an empty buffer");
                }
            } catch (Throwable t) {
                fatalError(t, "Fatal error: protocol.get_buffer() call failed.");
                return;
            }
            int n = Math.min(target.remaining(), data.remaining());
            target.put(data.slice(data.position(), n));
            data.position(data.position() + n);
            try {
                bufferedProtocol.bufferUpdated(n);
            } catch (Throwable t) {
                fatalError(t, "Fatal error: protocol.buffer_updated() call failed.");
                return;
            }
        }
    }

    /** Asks for no more: the receive in flight is cancelled, and what it brings meanwhile is held for resumeReading. */
    @Override
    void stopReading() {
        if (receive.inFlight()) {
            reads.cancel();
        }
    }

    @Override
    void readingResumed() {
        loop.callSoon(this::readAgain);
    }

    private void readAgain() {
        if (!isReading() || connLost > 0) {
            return; // paused again, or closed, meanwhile
        }
        if (held != null && !deliverHeld()) {
            return; // paused (or closed) again before all of it went out
        }
        if (streamEnd == StreamEnd.HELD) {
            streamEnd = StreamEnd.DELIVERED;
            readEof();
        } else if (!receive.inFlight() && streamEnd == StreamEnd.NOT_YET) {
            receive();
        }
    }

    /** Whether a receive is in flight (for tests). */
    boolean receiveInFlight() {
        return receive.inFlight();
    }

    /** How many bytes are held for resumeReading (for tests). */
    int heldBytes() {
        return held == null ? 0 : held.position();
    }

    // ---- writing ----------------------------------------------------------------------------

    @Override
    public void write(ByteBuffer data) {
        if (eof) {
            throw new IllegalStateException("Cannot call write() after write_eof()");
        }
        if (!data.hasRemaining()) {
            return;
        }
        if (connLost > 0) {
            dropWriteAfterConnectionLost();
            return;
        }
        if (!sending && bufferedBytes() == 0 && data.remaining() >= WRITE_AT_ONCE_MIN) {
            if (!writeAtOnce(data) || !data.hasRemaining()) {
                return;
            }
        }
        if (queue == null) {
            queue = new ProactorWriteQueue(DirectChunks.sizesOf(loop));
            writes = proactor.newOperation(channel, this::sendCompleted);
        }
        queue.append(data);
        if (!sending) {
            send();
        }
        pauseProtocolIfAboveHigh();
    }

    /**
     * A large write with nothing queued or in flight goes to the socket at once, as on the
     * readiness transport and asyncio's selector transport: what the socket takes needs no copy
     * into the queue, no send request and no drain; only the rest is queued and sent. Returns
     * false when the write failed (fatal to the transport).
     */
    private boolean writeAtOnce(ByteBuffer data) {
        try {
            channel.write(data);
            return true;
        } catch (IOException e) {
            fatalError(e, "Fatal write error on socket transport");
            return false;
        }
    }

    private void send() {
        sending = true;
        writes.send(queue.head());
    }

    private void sendCompleted() {
        while (writes.nextCompletion()) {
            sendCompleted(writes.result());
        }
    }

    private void sendCompleted(int n) {
        sending = false;
        queue.sendCompleted(n);
        if (connLost > 0) {
            return;
        }
        if (n < 0) {
            fatalError(proactor.errorOf(n), "Fatal write error on socket transport");
            return;
        }
        if (!queue.isEmpty()) {
            send();
        }
        resumeProtocolIfAtLow(); // may write more: look at the queue only after it
        if (!queue.isEmpty()) {
            return;
        }
        if (closing) {
            connLost++; // as asyncio's proactor, connectionLost soon: the channel closes only after the loop's next wait
            loop.callSoon(() -> callConnectionLost(null));
        } else if (eof) {
            shutdownOutput();
        }
    }

    @Override
    void shutdownOutput() {
        try {
            channel.shutdownOutput();
        } catch (IOException e) {
            fatalError(e, "Fatal error on shutdown of the write side");
        }
    }

    @Override
    long bufferedBytes() {
        return queue == null ? 0 : queue.size();
    }

    // ---- closing ----------------------------------------------------------------------------

    @Override
    void discardBufferedWrites() {
        if (sending) {
            writes.cancel();
        }
        if (queue != null) {
            queue.clear(sending);
        }
    }

    /** The channel is closed: whatever is still in flight is cancelled (it holds the socket until it ends). */
    @Override
    void connectionLostCleanup() {
        stopReading();
        if (sending) {
            writes.cancel();
        }
        super.connectionLostCleanup();
    }

    // ---- the rest ---------------------------------------------------------------------------

    @Override
    public String toString() {
        return "<ProactorSocketTransport " + state() + " peer=" + peername + " bufsize=" + bufferedBytes() + ">";
    }
}
