package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;

import static io.jasyncio.task.Tasks.await;

/**
 * asyncio's {@code loop.sendfile} and {@code loop.sock_sendfile}: a file region to a connection.
 * On a plain socket the kernel copies it ({@link FileChannel#transferTo}: sendfile(2) on Linux,
 * where the JDK itself copies through user space if the kernel refuses): the transport's buffer is
 * flushed first, reading is paused meanwhile, and each call sends what the socket takes, waiting
 * for the socket to be writable between calls. Over TLS the file is read in chunks (off the loop, on the default executor) and
 * written through the transport, waiting on its flow control between chunks, so memory stays
 * bounded by its high-water mark either way.
 */
public final class Sendfile {
    /** asyncio's chunk for the fallback path. */
    static final int FALLBACK_CHUNK = 64 * 1024;

    private Sendfile() {
    }

    /** Coroutine: sends all of {@code file} from its start; returns the bytes sent. */
    public static long sendfile(EventLoop loop, Transport transport, FileChannel file) throws IOException {
        return sendfile(loop, transport, file, 0, -1, true);
    }

    /**
     * Coroutine: sends {@code count} bytes of {@code file} from {@code offset} ({@code count} -1:
     * up to the end of the file) over {@code transport}; returns the bytes sent and leaves the
     * file's position after them. Without {@code fallback}, a transport that cannot send a file
     * natively (TLS) is an error, as in asyncio.
     */
    public static long sendfile(EventLoop loop, Transport transport, FileChannel file, long offset, long count,
                                boolean fallback) throws IOException {
        checkRegion(offset, count);
        if (transport.isClosing()) {
            throw new IllegalStateException("Transport is closing");
        }
        SendfileFlow flow = new SendfileFlow(loop, transport);
        try {
            if (transport instanceof ChannelTransport<?> plain && plain.channel instanceof SocketChannel socket) {
                flow.drainTo(0); // what was written before goes first
                return sendNative(loop, socket, file, offset, count);
            }
            if (!fallback) {
                throw new IllegalStateException("fallback is disabled and native sendfile is not supported for "
                        + transport);
            }
            return sendThroughTransport(loop, transport, flow, file, offset, count);
        } finally {
            flow.restore();
        }
    }

    /**
     * Coroutine: asyncio's {@code sock_sendfile}: {@code count} bytes of {@code file} from
     * {@code offset} (-1: to its end) to a non-blocking socket, zero-copy; returns the bytes sent.
     */
    public static long sockSendfile(EventLoop loop, SocketChannel socket, FileChannel file, long offset, long count)
            throws IOException {
        checkRegion(offset, count);
        return sendNative(loop, socket, file, offset, count);
    }

    private static long sendNative(EventLoop loop, SocketChannel socket, FileChannel file, long offset, long count)
            throws IOException {
        long end = count < 0 ? file.size() : Math.min(offset + count, file.size());
        long[] position = {offset};
        try {
            while (position[0] < end) {
                Sockets.whenReady(loop, socket, true, () -> {
                    long sent = file.transferTo(position[0], end - position[0], socket);
                    position[0] += sent;
                    return sent == 0 ? null : Boolean.TRUE; // 0: the socket buffer is full
                });
            }
        } finally {
            if (position[0] > offset) {
                file.position(position[0]);
            }
        }
        return position[0] - offset;
    }

    private static long sendThroughTransport(EventLoop loop, Transport transport, SendfileFlow flow, FileChannel file,
                                             long offset, long count) throws IOException {
        long sent = 0;
        ByteBuffer chunk = ByteBuffer.allocate(FALLBACK_CHUNK); // reused: write() takes or copies all of it
        try {
            while (count < 0 || sent < count) {
                int want = (int) (count < 0 ? FALLBACK_CHUNK : Math.min(FALLBACK_CHUNK, count - sent));
                long at = offset + sent;
                chunk.clear().limit(want);
                int read = await(loop.runInExecutor(null, () -> file.read(chunk, at)));
                if (read <= 0) {
                    break;
                }
                flow.drain();
                transport.write(chunk.flip());
                sent += read;
            }
        } finally {
            if (sent > 0) {
                file.position(offset + sent);
            }
        }
        return sent;
    }

    private static void checkRegion(long offset, long count) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be a non-negative integer (got " + offset + ")");
        }
        if (count == 0 || count < -1) {
            throw new IllegalArgumentException("count must be a positive integer or -1 for the whole file (got " + count + ")");
        }
    }
}
