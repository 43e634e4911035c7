package io.jasyncio.net;

import java.nio.ByteBuffer;

/**
 * A stream protocol that lends the transport room in its own buffer, so that bytes are read
 * straight where they will be consumed instead of through the loop's read buffer and a copy
 * ({@link StreamReaderProtocol}, for a {@link StreamReader} of bulk data). Every stream transport
 * asks the same way: the readiness transport fills the room in the read it makes at once, the
 * proactor transport lends it to a receive that completes later.
 *
 * <p>A lent room belongs to the transport (and the kernel) until it comes back, filled
 * ({@link #lentRoomFilled}) or not ({@link #lentRoomReturned}); meanwhile the protocol neither
 * writes there nor moves it. Bytes that are not read into a lent room come through
 * {@link #dataReceived}, as for any protocol.
 */
interface LendingProtocol extends Protocol {
    /** Whether {@link #lendRoom()} would lend room now. */
    boolean canLendRoom();

    /** Room to read into, lent until it is filled or returned; null: none now (read as for any protocol). */
    ByteBuffer lendRoom();

    /** {@code n} bytes arrived in {@code room} (from its start), lent by {@link #lendRoom()}. */
    void lentRoomFilled(ByteBuffer room, int n);

    /** The read {@code room} was lent to ended without bytes (the end of the stream, an error, a cancel). */
    void lentRoomReturned(ByteBuffer room);
}
