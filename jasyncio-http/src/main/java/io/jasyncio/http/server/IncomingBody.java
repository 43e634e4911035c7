package io.jasyncio.http.server;

import io.jasyncio.http.HttpParseException;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The body of the request being answered, as its {@link RequestCycle} feeds it: queued for a
 * streaming handler ({@link RequestBody}), gathered for a whole-request one ({@link WholeBody}),
 * or none ({@link #NONE}, one instance for every request without a body: nothing made per plain GET).
 * The cycle talks to the body; the {@link HttpExchange} only reads it.
 */
sealed interface IncomingBody permits RequestBody, WholeBody, IncomingBody.None {
    /** The body of a request without one. */
    IncomingBody NONE = new None();

    /** A piece arrived; throws the refusal (503) when it cannot be held. */
    void arrived(ByteBuffer piece) throws HttpParseException;

    /** The whole body arrived. */
    default void completed() {
    }

    /** The body will not complete: a waiting read throws {@code cause}; gathered bytes go back to the budget. */
    void failed(IOException cause);

    /** The exchange is over: gathered bytes go back to the server's budget. */
    default void release() {
    }

    /** Coroutine: the next piece, or null at the end (a streaming handler's read). */
    byte[] next() throws IOException;

    /** Whether {@code t} is why this body could not complete (the client broke its request off). */
    default boolean failedWith(Throwable t) {
        return false;
    }

    /** Bytes queued for a streaming handler and not read yet. */
    default long queuedBytes() {
        return 0;
    }

    /** Bytes gathered so far for a whole-request handler. */
    default int gatheredBytes() {
        return 0;
    }

    /** No body: it ends at once and holds nothing. */
    final class None implements IncomingBody {
        private None() {
        }

        @Override
        public void arrived(ByteBuffer piece) {
            throw new IllegalStateException("a request without a body got body bytes");
        }

        @Override
        public void failed(IOException cause) {
        }

        @Override
        public byte[] next() {
            return null;
        }
    }
}
