package io.jasyncio.net;

import io.jasyncio.net.spi.Proactor;

import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * How a stream transport reads by completion (asyncio's {@code _ProactorReadPipeTransport}): the
 * receives are requests to a completion-based loop ({@link Proactor}), no readiness round trip.
 *
 * <p>One multishot receive is in flight, and the loop completes it once per arrival, into a
 * buffer of its own; the bytes go to the protocol straight from there (into the protocol's own
 * buffers for a {@link BufferedProtocol}, as many as it takes). A {@link StreamReader} of bulk
 * data (a direct buffer) instead lends its free room, and one receive at a time lands there, no
 * copy (see {@code StreamReader.lendRoom}); the next is asked for once the task the bytes woke has
 * read them. {@code pauseReading} cancels the receive; what arrives before the cancel takes effect
 * (or the end of the stream) is held (copied) and delivered after {@code resumeReading}, which
 * asks for a receive again.
 */
final class CompletionReads implements Runnable {
    /** At most this much of what was held during a pause goes to the protocol in one call. */
    private static final int HELD_SLICE = 32 * 1024;

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

    private final ChannelTransport<SocketChannel> transport;
    private final Proactor proactor;
    private final Proactor.Operation reads;
    private Receive receive = Receive.NONE;
    private StreamEnd streamEnd = StreamEnd.NOT_YET;
    /** Bytes that arrived after pauseReading (write mode), delivered on resumeReading; null: none. */
    private ByteBuffer held;
    /** The room the receive in flight fills, and the protocol that lent it; null unless {@link Receive#INTO_ROOM}. */
    private ByteBuffer room;
    private LendingProtocol roomLender;

    /** Reads of {@code transport}'s socket through {@code proactor} (its first request slot). */
    CompletionReads(ChannelTransport<SocketChannel> transport, Proactor proactor) {
        this.transport = transport;
        this.proactor = proactor;
        this.reads = proactor.newOperation(transport.channel, this::receiveCompleted);
    }

    /** Starts reading: a receive. */
    void start() {
        receive();
    }

    private void receive() {
        LendingProtocol lender = transport.lender();
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
        return !receive.inFlight() && transport.isReading() && streamEnd == StreamEnd.NOT_YET
                && transport.connLost == 0 && held == null;
    }

    /**
     * Asks for the next receive once the callbacks queued meanwhile ran: a task woken by the
     * bytes just delivered reads them first, so a reader lends its whole room, not what is left.
     */
    private void receiveSoon() {
        if (receive == Receive.NONE) {
            receive = Receive.SOON;
            transport.loop.callSoon(this); // run()
        }
    }

    /** Soon after a receive completed (see receiveSoon): the next receive, if one is due. */
    @Override
    public void run() {
        if (receive == Receive.SOON) {
            receive = Receive.NONE;
        }
        if (receiveDue()) {
            receive();
        }
    }

    /** The receive's completions, in order: bytes, the end of the stream, an error, or its end. */
    private void receiveCompleted() {
        ChannelTransport<SocketChannel> t = transport;
        while (reads.nextCompletion()) {
            int n = reads.result();
            ByteBuffer lentRoom = room;
            LendingProtocol lender = roomLender;
            if (!reads.more()) {
                receive = Receive.NONE;
                room = null;
                roomLender = null;
            }
            if (t.closing || t.connLost > 0 || reads.cancelled()) {
                // asyncio's close() cancels the read: what comes now is dropped
            } else if (n < 0) {
                t.fatalError(proactor.errorOf(n), "Fatal read error on socket transport");
            } else if (t.readingPaused || held != null || streamEnd == StreamEnd.HELD) {
                hold(received(n, lentRoom)); // after what is held already, in order (null: the end of the stream)
            } else if (n == 0) {
                streamEnd = StreamEnd.DELIVERED;
                t.readEof();
            } else if (lentRoom != null && lender == t.streamProtocol) {
                receivedInPlace(lender, lentRoom, n);
                continue; // the room was filled, not returned
            } else {
                deliver(received(n, lentRoom)); // also bytes in the room of a reader whose protocol was replaced meanwhile
            }
            if (lentRoom != null) {
                lender.lentRoomReturned(lentRoom);
            } else if (receive == Receive.MULTISHOT && t.isReading() && t.lender() != null && t.lender().canLendRoom()) {
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
            transport.fatalError(t, "Fatal error: protocol.data_received() call failed.");
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
            if ((!transport.isReading() || transport.connLost > 0) && data.hasRemaining()) {
                held = data.compact();
                return false;
            }
        }
        held = null;
        return transport.isReading() && transport.connLost == 0;
    }

    /** Hands received bytes to the protocol (for a BufferedProtocol, into its own buffers). */
    private void deliver(ByteBuffer data) {
        Protocol protocol = transport.streamProtocol;
        if (protocol != null) {
            try {
                protocol.dataReceived(data);
            } catch (Throwable t) {
                transport.fatalError(t, "Fatal error: protocol.data_received() call failed.");
            }
        } else {
            feedBufferedProtocol(transport.bufferedProtocol, data);
        }
    }

    /** asyncio's {@code _feed_data_to_buffered_proto}: as many getBuffer/bufferUpdated rounds as the bytes need. */
    private void feedBufferedProtocol(BufferedProtocol protocol, ByteBuffer data) {
        while (data.hasRemaining() && transport.connLost == 0) {
            ByteBuffer target;
            try {
                target = protocol.getBuffer(data.remaining());
                if (target == null || !target.hasRemaining()) {
                    throw new IllegalStateException("get_buffer() returned an empty buffer");
                }
            } catch (Throwable t) {
                transport.fatalError(t, "Fatal error: protocol.get_buffer() call failed.");
                return;
            }
            int n = Math.min(target.remaining(), data.remaining());
            target.put(data.slice(data.position(), n));
            data.position(data.position() + n);
            try {
                protocol.bufferUpdated(n);
            } catch (Throwable t) {
                transport.fatalError(t, "Fatal error: protocol.buffer_updated() call failed.");
                return;
            }
        }
    }

    /** Asks for no more: the receive in flight is cancelled, and what it brings meanwhile is held for resume. */
    void stop() {
        if (receive.inFlight()) {
            reads.cancel();
        }
    }

    /** Reading resumed: soon, what was held goes to the protocol, then a receive is asked for. */
    void resume() {
        transport.loop.callSoon(this::readAgain);
    }

    private void readAgain() {
        if (!transport.isReading() || transport.connLost > 0) {
            return; // paused again, or closed, meanwhile
        }
        if (held != null && !deliverHeld()) {
            return; // paused (or closed) again before all of it went out
        }
        if (streamEnd == StreamEnd.HELD) {
            streamEnd = StreamEnd.DELIVERED;
            transport.readEof();
        } else if (!receive.inFlight() && streamEnd == StreamEnd.NOT_YET) {
            receive();
        }
    }

    /** Whether a receive is in flight (for tests). */
    boolean inFlight() {
        return receive.inFlight();
    }

    /** How many bytes are held for resumeReading (for tests). */
    int heldBytes() {
        return held == null ? 0 : held.position();
    }
}
