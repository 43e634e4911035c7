package io.jasyncio.http.server;

import io.jasyncio.http.HttpParseException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A request body gathered whole for an {@link HttpHandler}: it grows as bytes arrive (doubling,
 * never past the announced Content-Length), each growth paid for from the server's
 * {@link BodyBudget}. Memory follows the bytes received, never the size a client announces: a
 * client that announces 16 MiB and sends 10 bytes costs 256 bytes.
 */
final class WholeBody implements IncomingBody {
    private static final byte[] EMPTY = new byte[0];
    private static final int FIRST_CAPACITY = 256;

    private final BodyBudget budget;
    /** The Content-Length announced (-1: chunked): a cap on growth, never a size to allocate. */
    private final long announced;
    private byte[] bytes = EMPTY;
    private int length;

    WholeBody(BodyBudget budget, long announced) {
        this.budget = budget;
        this.announced = announced;
    }

    /** Appends {@code piece}; false (nothing taken from it) if the growth it needs is over the budget. */
    boolean append(ByteBuffer piece) {
        int n = piece.remaining();
        if (length + n > bytes.length) {
            int capacity = grownCapacity(bytes.length, length + n, announced);
            if (!budget.tryTake(capacity - bytes.length)) {
                return false;
            }
            bytes = Arrays.copyOf(bytes, capacity);
        }
        piece.get(bytes, length, n);
        length += n;
        return true;
    }

    /** A piece arrived; refused with 503 when the server's budget for whole bodies cannot hold it. */
    @Override
    public void arrived(ByteBuffer piece) throws HttpParseException {
        if (!append(piece)) {
            throw new HttpParseException(503, "the server holds as many request bodies as it may ("
                    + budget.capacity() + " bytes in all); retry later");
        }
    }

    @Override
    public void failed(IOException cause) {
        release(); // the handler never runs: nothing waits on this body
    }

    @Override
    public byte[] next() {
        throw new IllegalStateException("a whole-request handler has its body in the request");
    }

    @Override
    public int gatheredBytes() {
        return length;
    }

    /** The body's bytes (the buffer itself when it is full, as it is for a Content-Length body). */
    byte[] toArray() {
        return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }

    /** Gives the buffer's capacity back to the budget (once: later calls do nothing). */
    @Override
    public void release() {
        budget.giveBack(bytes.length);
        bytes = EMPTY;
        length = 0;
    }

    /** The next capacity: doubled (at least 256 bytes, at least {@code needed}), and no more than the announced length. */
    static int grownCapacity(int capacity, int needed, long announced) {
        long grown = Math.max(Math.max(capacity * 2L, FIRST_CAPACITY), needed);
        if (announced >= needed) {
            grown = Math.min(grown, announced);
        }
        return (int) Math.min(grown, Integer.MAX_VALUE - 8);
    }
}
