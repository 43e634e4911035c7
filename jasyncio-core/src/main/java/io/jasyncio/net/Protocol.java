package io.jasyncio.net;

import java.nio.ByteBuffer;

/** A stream protocol (asyncio's {@code Protocol}): data arrives as it is read. */
public interface Protocol extends BaseProtocol {
    /** The connection is up; {@code transport} is the way to write and to close. */
    default void connectionMade(Transport transport) {
    }

    /**
     * Bytes arrived, between {@code data}'s position and limit. The buffer belongs to the
     * transport and is reused for the next read: consume or copy it before returning (passing it
     * straight to {@link Transport#write(ByteBuffer)} is fine: the transport copies what it cannot
     * send at once).
     */
    default void dataReceived(ByteBuffer data) {
    }

    /**
     * The peer will send no more (it half-closed or closed). Return true to keep the connection
     * open for writing (half-close); false lets the transport close itself.
     */
    default boolean eofReceived() {
        return false;
    }
}
