package io.jasyncio.http.server;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

import static io.jasyncio.task.Tasks.await;

/**
 * The body of one request, queued for a streaming handler as it arrives (each piece copied out of
 * the read buffer once). The connection stops reading the socket while the queue holds more than
 * its mark, so a handler that does not read holds the client back instead of filling memory.
 */
final class RequestBody {
    private final EventLoop loop;
    private final ArrayDeque<byte[]> pieces = new ArrayDeque<>();
    private long queuedBytes;
    private boolean ended;
    private IOException failure;
    private Future<Void> waiter;

    RequestBody(EventLoop loop) {
        this.loop = loop;
    }

    void add(ByteBuffer piece) {
        byte[] copy = new byte[piece.remaining()];
        piece.get(copy);
        pieces.add(copy);
        queuedBytes += copy.length;
        wake();
    }

    void end() {
        ended = true;
        wake();
    }

    /** The body will not complete (a malformed chunk, a timeout, the connection lost). */
    void fail(IOException cause) {
        if (!ended && failure == null) {
            failure = cause;
            wake();
        }
    }

    boolean isEnded() {
        return ended;
    }

    long queuedBytes() {
        return queuedBytes;
    }

    /** Coroutine: the next piece, or null once the body ended; throws why it cannot complete. */
    byte[] next() throws IOException {
        while (pieces.isEmpty()) {
            if (ended) {
                return null;
            }
            if (failure != null) {
                throw failure;
            }
            waiter = loop.createFuture();
            await(waiter);
        }
        byte[] piece = pieces.poll();
        queuedBytes -= piece.length;
        return piece;
    }

    private void wake() {
        Future<Void> w = waiter;
        if (w != null) {
            waiter = null;
            if (!w.isDone()) {
                w.setResult(null);
            }
        }
    }
}
