package io.jasyncio.net;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * A bidirectional stream transport (asyncio's {@code Transport}): writes are buffered with flow
 * control, reads are delivered to the protocol and can be paused.
 */
public interface Transport extends BaseTransport {
    /** asyncio's default high-water mark: above it the protocol is asked to pause writing. */
    int DEFAULT_HIGH_WATER = 64 * 1024;
    /** asyncio's default low-water mark: at or below it the protocol may resume writing. */
    int DEFAULT_LOW_WATER = 16 * 1024;

    /**
     * Writes the bytes between {@code data}'s position and limit (advancing the position). Sends
     * at once what the socket takes; copies the rest into the write buffer. Never blocks.
     */
    void write(ByteBuffer data);

    /** Writes {@code data}, as {@link #write(ByteBuffer)} of the whole array. */
    default void write(byte[] data) {
        write(ByteBuffer.wrap(data));
    }

    /** Writes {@code length} bytes of {@code data} from {@code offset}. */
    default void write(byte[] data, int offset, int length) {
        write(ByteBuffer.wrap(data, offset, length));
    }

    /** Writes each of {@code chunks} in order. */
    default void writelines(List<byte[]> chunks) {
        for (byte[] chunk : chunks) {
            write(chunk);
        }
    }

    /** Closes the write side once buffered data is sent (a half-close); reading goes on. */
    void writeEof();

    /** Whether {@link #writeEof()} is possible on this transport. */
    boolean canWriteEof();

    /** Closes at once: buffered data is dropped; {@code connectionLost(null)} follows soon. */
    void abort();

    /** Stops reading until {@link #resumeReading()}: no more {@code dataReceived} meanwhile. */
    void pauseReading();

    /** Reads again after {@link #pauseReading()}. */
    void resumeReading();

    /** Whether the transport is reading (not paused, not closing). */
    boolean isReading();

    /**
     * Sets the write buffer's marks: above {@code high} the protocol's pauseWriting is called, at or
     * below {@code low} resumeWriting. Requires {@code high >= low >= 0}.
     */
    void setWriteBufferLimits(int high, int low);

    /** As asyncio with only {@code high}: low is a quarter of it. */
    default void setWriteBufferLimits(int high) {
        setWriteBufferLimits(high, high / 4);
    }

    /** {high, low}. */
    int[] getWriteBufferLimits();

    /** Bytes written but not yet handed to the socket. */
    long getWriteBufferSize();
}
