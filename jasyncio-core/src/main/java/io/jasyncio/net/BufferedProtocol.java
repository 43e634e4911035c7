package io.jasyncio.net;

import java.nio.ByteBuffer;

/**
 * A stream protocol that hands the transport its own buffer to read into (asyncio's
 * {@code BufferedProtocol}): no copy between the socket and the protocol.
 */
public interface BufferedProtocol extends BaseProtocol {
    /** The connection is up; {@code transport} is its transport. Does nothing unless overridden. */
    default void connectionMade(Transport transport) {
    }

    /**
     * A buffer to read into, with room between its position and limit ({@code sizeHint} is the
     * suggested size, -1 when the transport has no opinion). Returning an empty buffer is an error.
     */
    ByteBuffer getBuffer(int sizeHint);

    /** {@code nbytes} bytes were read into the last buffer, ending at its (advanced) position. */
    void bufferUpdated(int nbytes);

    /** As {@link Protocol#eofReceived()}. */
    default boolean eofReceived() {
        return false;
    }
}
