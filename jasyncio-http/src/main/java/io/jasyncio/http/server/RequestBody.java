package io.jasyncio.http.server;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;

import static io.jasyncio.task.Tasks.await;

/**
 * The body of one request, queued for a streaming handler as it arrives (each piece copied out of
 * the read buffer once). The connection stops reading the socket while the queue holds more than
 * its mark, so a handler that does not read holds the client back instead of filling memory.
 */
final class RequestBody implements IncomingBody {
    private static final byte[] NO_BODY = new byte[0];

    private final EventLoop loop;
    private final ArrayDeque<byte[]> pieces = new ArrayDeque<>();
    private long queuedBytes;
    private boolean ended;
    private IOException failure;
    private Future<Void> waiter;

    RequestBody(EventLoop loop) {
        this.loop = loop;
    }

    @Override
    public void arrived(ByteBuffer piece) {
        byte[] copy = new byte[piece.remaining()];
        piece.get(copy);
        pieces.add(copy);
        queuedBytes += copy.length;
        wake();
    }

    @Override
    public void completed() {
        ended = true;
        wake();
    }

    /** The body will not complete (a malformed chunk, a timeout, the connection lost). */
    @Override
    public void failed(IOException cause) {
        if (!ended && failure == null) {
            failure = cause;
            wake();
        }
    }

    @Override
    public boolean failedWith(Throwable t) {
        return t != null && t == failure;
    }

    @Override
    public long queuedBytes() {
        return queuedBytes;
    }

    /** Coroutine: the next piece, or null once the body ended; throws why it cannot complete. */
    @Override
    public byte[] next() throws IOException {
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

    /**
     * Coroutine: the rest of {@code exchange}'s body, read piece by piece and joined (bounded by the
     * body limit), or null once it passes {@code maxBytes} ({@code -1}: no bound of its own).
     */
    static byte[] readAll(HttpExchange exchange, long maxBytes) throws IOException {
        byte[] all = NO_BODY;
        int length = 0;
        for (ByteBuffer piece = exchange.read(); piece != null; piece = exchange.read()) {
            int n = piece.remaining();
            if (maxBytes >= 0 && length + (long) n > maxBytes) {
                return null;
            }
            if (length + n > all.length) {
                all = Arrays.copyOf(all, Math.max(all.length * 2, length + n));
            }
            piece.get(all, length, n);
            length += n;
        }
        return length == all.length ? all : Arrays.copyOf(all, length);
    }
}
