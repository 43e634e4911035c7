package io.jasyncio.http.client;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where a streaming {@link RequestBody} writes its bytes, on the loop. */
public interface BodyWriter {
    /**
     * Coroutine: sends the bytes between {@code data}'s position and limit (as a chunk when the
     * body is chunked), then waits while the connection's write buffer is above its high-water
     * mark. Throws when the connection is gone or the body would exceed its declared length.
     */
    void write(ByteBuffer data) throws IOException;

    default void write(byte[] data) throws IOException {
        write(ByteBuffer.wrap(data));
    }
}
