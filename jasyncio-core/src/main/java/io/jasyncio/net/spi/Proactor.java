package io.jasyncio.net.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A loop backend that reads and writes stream sockets by completion, as asyncio's proactor: the
 * transport asks for a receive or a send, the backend carries it out (on Linux, as io_uring
 * requests batched into the loop's one system call per iteration) and tells the transport when it
 * is done. Such a backend offers itself as this feature ({@code LoopBackend.feature(Proactor.class)},
 * which by default answers with the backend when it is one), so each stream connection its loop
 * makes or accepts gets core's completion transport; everything else (accepting, connecting,
 * {@code addReader}, the {@code sock*} coroutines, datagrams, pipes) stays on readiness. A backend
 * that offers none gets the readiness transport. The SPI of a completion backend outside core: it
 * names JDK types only.
 */
public interface Proactor {
    /**
     * One request slot on one socket: at most one request in flight at a time. A buffer handed to
     * {@link #send} or {@link #recvInto} must be direct and stay untouched (in the range given)
     * until the request ends: the kernel reads or writes it meanwhile, at any moment.
     */
    interface Operation {
        /**
         * Asks for receives into the loop's own buffers, one completion per arrival, until the
         * request ends: a completion with {@link #more()} false (end of stream, an error, cancelled).
         */
        void recvMultishot();

        /**
         * Asks for one receive into {@code target} (direct), between its position and limit: one
         * completion ({@link #more()} false) with the count of bytes written there from its
         * position (0: end of stream), or -errno; {@link #received()} is null. The operation keeps
         * {@code target} reachable until then.
         */
        void recvInto(ByteBuffer target);

        /** Asks for a send of every byte of {@code source} between position and limit. */
        void send(ByteBuffer source);

        /** Asks the kernel to end the request in flight early; it still completes (for good: {@link #more()} false). */
        void cancel();

        /**
         * Moves to the next completion not looked at yet; false when there is none. The
         * completion callback calls it until false, and each completion's buffer goes back to the
         * loop when it moves on.
         */
        boolean nextCompletion();

        /** This completion's result: bytes moved (a receive of 0: end of stream), or -errno. */
        int result();

        /**
         * A multishot receive completion's bytes (position 0, limit {@link #result()}); valid until
         * {@link #nextCompletion()}. Null for a {@link #recvInto} (its bytes are in its target).
         */
        ByteBuffer received();

        /** Whether the request goes on after this completion. */
        boolean more();

        /** Whether this completion ends the request because {@link #cancel()} asked it to. */
        boolean cancelled();
    }

    /**
     * A request slot for {@code channel}. The loop holds it only while a request is in flight (so
     * an idle transport can still be collected); {@code onCompletion} runs on the loop thread as a
     * callback of the ready queue (in the context current now) when completions are waiting.
     * Requests reach the kernel at the loop's next wait: the channel must not be closed before
     * (its fd number could be reused meanwhile); afterwards a request holds the socket itself,
     * and {@link Operation#cancel} ends it.
     */
    Operation newOperation(SocketChannel channel, Runnable onCompletion);

    /** The error a failed request's result ({@code -errno}) stands for, with the system's message. */
    IOException errorOf(int result);
}
