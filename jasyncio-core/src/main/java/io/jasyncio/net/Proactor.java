package io.jasyncio.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A loop that reads and writes stream sockets by completion, as asyncio's proactor: the transport
 * asks for a receive or a send, the loop carries it out (on Linux, as io_uring requests batched
 * into the loop's one system call per iteration) and tells the transport when it is done. A loop
 * implementing this gets a {@link ProactorSocketTransport} for each connection it makes or
 * accepts; everything else (accepting, connecting, {@code addReader}, the {@code sock*}
 * coroutines) stays on readiness.
 */
public interface Proactor {
    /**
     * One request slot on one socket: at most one request in flight at a time. The buffers handed
     * over must be direct and stay untouched (in the range given) until the request completes.
     */
    interface Operation {
        /** Asks for one receive into {@code target}'s bytes between position and limit. */
        void recv(ByteBuffer target);

        /** Asks for a send of every byte of {@code source} between position and limit. */
        void send(ByteBuffer source);

        /** Asks the kernel to end the request in flight early; it still completes, once. */
        void cancel();

        /** The last request's result: bytes moved (a receive of 0: end of stream), or -errno. */
        int result();
    }

    /**
     * A request slot for {@code channel}. The loop holds it only while a request is in flight (so
     * an idle transport can still be collected); {@code onCompletion} runs on the loop thread as a
     * callback of the ready queue (in the context current now) each time a request completes.
     * Requests reach the kernel at the loop's next wait: the channel must not be closed before
     * (its fd number could be reused meanwhile); afterwards a request holds the socket itself,
     * and {@link Operation#cancel} ends it.
     */
    Operation newOperation(SocketChannel channel, Runnable onCompletion);

    /** The error a failed request's result ({@code -errno}) stands for, with the system's message. */
    IOException errorOf(int result);
}
