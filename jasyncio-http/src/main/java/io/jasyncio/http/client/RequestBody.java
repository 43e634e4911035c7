package io.jasyncio.http.client;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What a request sends after its head: nothing, bytes known up front, or a stream a coroutine
 * writes as it goes. A body of known length goes with {@code Content-Length}; one of unknown
 * length ({@link #length()} -1) with {@code Transfer-Encoding: chunked}.
 */
public interface RequestBody {
    /** The body's length in bytes, or -1 when it is only known at its end (then it is sent chunked). */
    long length();

    /**
     * Coroutine: writes the body to {@code out}. Called at most once per request, on the loop,
     * after the head is written. Each write waits while the connection's write buffer is above
     * its high-water mark, so a slow server slows the writer down.
     */
    void writeTo(BodyWriter out) throws Exception;

    /** No body (no {@code Content-Length} either, as for a GET). */
    static RequestBody empty() {
        return Empty.INSTANCE;
    }

    static RequestBody of(byte[] bytes) {
        return new Bytes(bytes.clone());
    }

    static RequestBody of(String text) {
        return of(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A body a coroutine writes, of {@code length} bytes (the writer must write exactly that many)
     * or of unknown length (-1: chunked).
     */
    static RequestBody streaming(long length, Producer producer) {
        if (length < -1) {
            throw new IllegalArgumentException("length must be >= 0, or -1 for unknown, got " + length);
        }
        return new RequestBody() {
            @Override
            public long length() {
                return length;
            }

            @Override
            public void writeTo(BodyWriter out) throws Exception {
                producer.writeTo(out);
            }
        };
    }

    /** The coroutine of a streaming body. */
    @FunctionalInterface
    interface Producer {
        void writeTo(BodyWriter out) throws Exception;
    }

    /** Bytes known up front (a copy, so later changes to the caller's array do not show). */
    record Bytes(byte[] bytes) implements RequestBody {
        @Override
        public long length() {
            return bytes.length;
        }

        @Override
        public void writeTo(BodyWriter out) throws Exception {
            out.write(ByteBuffer.wrap(bytes));
        }
    }

    /** The empty body, told apart from a zero-length one: it sends no {@code Content-Length}. */
    final class Empty implements RequestBody {
        static final Empty INSTANCE = new Empty();

        private Empty() {
        }

        @Override
        public long length() {
            return 0;
        }

        @Override
        public void writeTo(BodyWriter out) {
        }
    }
}
