package io.jasyncio.http.server;

import io.jasyncio.loop.LoopLocal;
import io.jasyncio.net.Transport;

import java.nio.ByteBuffer;

/**
 * One loop's staging buffer for response bytes: the pieces of a response (head, Date, body) and
 * the responses to pipelined requests read together are gathered here and handed to the
 * transport in one write, which sends what the socket takes at once and copies only the rest.
 * It holds one transport's bytes at a time; another's flushes them first. Each connection's
 * {@link ResponseWriter} counts the bytes it puts here (what the client has taken is that count
 * less what the transport holds).
 */
final class Outbound {
    private static final LoopLocal<Outbound> PER_LOOP = LoopLocal.withInitial(loop -> new Outbound());
    private static final int CAPACITY = 32 * 1024;
    /** Pieces this large go to the transport straight, not through the buffer. */
    private static final int DIRECT_WRITE = CAPACITY / 2;

    private final ByteBuffer buffer = ByteBuffer.allocateDirect(CAPACITY);
    private Transport owner;

    static Outbound of(io.jasyncio.loop.EventLoop loop) {
        return PER_LOOP.get(loop);
    }

    void put(Transport transport, byte[] bytes) {
        int length = bytes.length;
        claim(transport, length);
        if (length >= DIRECT_WRITE) {
            flush();
            transport.write(ByteBuffer.wrap(bytes));
        } else {
            buffer.put(bytes);
        }
    }

    void put(Transport transport, ByteBuffer bytes) {
        int length = bytes.remaining();
        claim(transport, length);
        if (length >= DIRECT_WRITE) {
            flush();
            transport.write(bytes);
        } else {
            buffer.put(bytes);
        }
    }

    /** Makes the buffer {@code transport}'s, with room for {@code length} bytes (if it can hold them). */
    private void claim(Transport transport, int length) {
        if (owner != transport) {
            flush();
            owner = transport;
        } else if (buffer.remaining() < length) {
            flush();
            owner = transport;
        }
    }

    /** Hands what is gathered for {@code transport} to it (nothing if the buffer holds another's). */
    void flush(Transport transport) {
        if (owner == transport) {
            flush();
        }
    }

    private void flush() {
        Transport t = owner;
        owner = null;
        if (t != null && buffer.position() > 0) {
            buffer.flip();
            if (!t.isClosing()) {
                t.write(buffer);
            }
        }
        buffer.clear();
    }
}
