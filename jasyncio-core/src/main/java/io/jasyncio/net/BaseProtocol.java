package io.jasyncio.net;

/**
 * What every protocol hears from its transport (asyncio's {@code BaseProtocol}): the end of the
 * connection and write flow control. Callbacks run on the loop thread; a callback that throws
 * ends its own connection only.
 */
public interface BaseProtocol {
    /**
     * The connection is gone: {@code exc} is the real cause (a reset, a failed callback, a TLS
     * error...), or null for an orderly close or an EOF. Called exactly once, last.
     */
    default void connectionLost(Throwable exc) {
    }

    /** The transport's write buffer rose above its high-water mark: stop writing for a while. */
    default void pauseWriting() {
    }

    /** The write buffer drained to its low-water mark: writing may go on. */
    default void resumeWriting() {
    }
}
