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

    /**
     * The transport's write buffer rose above its high-water mark: stop writing for a while.
     * Writes are still accepted, into memory without bound, so a protocol whose writes answer
     * what it reads (an echo, a proxy) must stop reading until {@link #resumeWriting()}, as
     * asyncio's documentation advises; otherwise a peer that sends and never reads fills the
     * server's memory:
     * <pre>{@code
     * public void pauseWriting()  { transport.pauseReading(); }
     * public void resumeWriting() { transport.resumeReading(); }
     * }</pre>
     * Then the data waits in the kernel's buffers and TCP stops the sender. (Streams do this for
     * you: {@link StreamWriter#drain()} waits while writing is paused.)
     */
    default void pauseWriting() {
    }

    /** The write buffer drained to its low-water mark: writing may go on. */
    default void resumeWriting() {
    }
}
