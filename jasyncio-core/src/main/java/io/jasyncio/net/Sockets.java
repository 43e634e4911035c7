package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;

import static io.jasyncio.task.Tasks.await;

/**
 * asyncio's low-level socket coroutines ({@code loop.sock_recv}, {@code sock_sendall}, ...) for
 * non-blocking channels: each tries the operation at once and only when the channel is not ready
 * waits for it with a reader or writer callback, removed again when it completes or the task is
 * cancelled.
 */
public final class Sockets {
    private Sockets() {
    }

    /** Coroutine: up to {@code n} bytes from {@code channel}; empty at end of stream. */
    public static byte[] sockRecv(EventLoop loop, SocketChannel channel, int n) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(n);
        int got = sockRecvInto(loop, channel, buf);
        return Arrays.copyOf(buf.array(), got);
    }

    /** Coroutine: reads into {@code buf} (from its position); returns the count, 0 at end of stream. */
    public static int sockRecvInto(EventLoop loop, SocketChannel channel, ByteBuffer buf) throws IOException {
        checkNonBlocking(channel);
        if (!buf.hasRemaining()) {
            return 0;
        }
        return whenReady(loop, channel, false, () -> {
            int n;
            try {
                n = channel.read(buf);
            } catch (IOException e) {
                throw ConnectionResetException.ifReset(e); // one type for a reset, whichever path saw it
            }
            return n == 0 ? null : Math.max(n, 0); // -1 (end of stream) is reported as 0
        });
    }

    /** Coroutine: sends all of {@code data}, waiting for the socket as needed. */
    public static void sockSendall(EventLoop loop, SocketChannel channel, ByteBuffer data) throws IOException {
        checkNonBlocking(channel);
        whenReady(loop, channel, true, () -> {
            channel.write(data);
            return data.hasRemaining() ? null : Boolean.TRUE;
        });
    }

    /** Coroutine: as {@link #sockSendall(EventLoop, SocketChannel, ByteBuffer)} of the whole array. */
    public static void sockSendall(EventLoop loop, SocketChannel channel, byte[] data) throws IOException {
        sockSendall(loop, channel, ByteBuffer.wrap(data));
    }

    /**
     * Coroutine: connects {@code channel} to {@code address} (a host name is resolved off the
     * loop). A failure names the address: "Connection refused: 127.0.0.1:1", still a
     * {@link java.net.ConnectException}.
     */
    public static void sockConnect(EventLoop loop, SocketChannel channel, SocketAddress address) throws IOException {
        checkNonBlocking(channel);
        if (address instanceof InetSocketAddress inet && inet.isUnresolved()) {
            address = Network.resolve(loop, inet.getHostString(), inet.getPort()).getFirst();
        }
        SocketAddress target = address;
        try {
            if (channel.connect(target)) {
                return;
            }
            whenReady(loop, channel, true, () -> channel.finishConnect() ? Boolean.TRUE : null);
        } catch (IOException e) {
            throw ConnectErrors.naming(e, target); // "Connection refused: 127.0.0.1:1", the same type
        }
    }

    /** Coroutine: the next connection on {@code server}, non-blocking (its peer: getRemoteAddress()). */
    public static SocketChannel sockAccept(EventLoop loop, ServerSocketChannel server) throws IOException {
        checkNonBlocking(server);
        SocketChannel accepted = whenReady(loop, server, false, server::accept);
        accepted.configureBlocking(false);
        return accepted;
    }

    // ---- datagrams (asyncio 3.11's sock_recvfrom, sock_recvfrom_into, sock_sendto) ----------------

    /** A datagram and the address it came from. */
    public record Datagram(byte[] data, SocketAddress address) {
    }

    /** How many bytes one datagram put into a caller's buffer, and the address it came from. */
    public record ReceivedFrom(int count, SocketAddress address) {
    }

    /** Coroutine: the next datagram on {@code channel}, cut to {@code bufsize} bytes as the kernel cuts it. */
    public static Datagram sockRecvfrom(EventLoop loop, DatagramChannel channel, int bufsize) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(bufsize);
        ReceivedFrom got = sockRecvfromInto(loop, channel, buf);
        return new Datagram(Arrays.copyOf(buf.array(), got.count()), got.address());
    }

    /** Coroutine: the next datagram on {@code channel}, into {@code buf} from its position. */
    public static ReceivedFrom sockRecvfromInto(EventLoop loop, DatagramChannel channel, ByteBuffer buf)
            throws IOException {
        checkNonBlocking(channel);
        int before = buf.position();
        SocketAddress from = whenReady(loop, channel, false, () -> channel.receive(buf));
        return new ReceivedFrom(buf.position() - before, from);
    }

    /** Coroutine: sends {@code data} as one datagram to {@code address}, waiting for room; returns its size. */
    public static int sockSendto(EventLoop loop, DatagramChannel channel, ByteBuffer data, SocketAddress address)
            throws IOException {
        checkNonBlocking(channel);
        if (!data.hasRemaining()) {
            return channel.send(data, address); // an empty datagram: 0 bytes, sent or not
        }
        return whenReady(loop, channel, true, () -> {
            int sent = channel.send(data, address);
            return sent == 0 ? null : sent; // 0: no room in the socket buffer, nothing sent
        });
    }

    /** Coroutine: sends {@code data} as one datagram to {@code address}; returns the bytes sent. */
    public static int sockSendto(EventLoop loop, DatagramChannel channel, byte[] data, SocketAddress address)
            throws IOException {
        return sockSendto(loop, channel, ByteBuffer.wrap(data), address);
    }

    /** One non-blocking try of an operation: its result, or null when the channel is not ready. */
    @FunctionalInterface
    interface NonBlockingTry<T> {
        T attempt() throws IOException;
    }

    /** Tries {@code op} now and, while it would block, again each time the channel is ready. */
    static <T> T whenReady(EventLoop loop, SelectableChannel channel, boolean forWrite, NonBlockingTry<T> op)
            throws IOException {
        T now = op.attempt();
        if (now != null) {
            return now;
        }
        Future<T> done = loop.createFuture();
        Runnable retry = () -> {
            if (done.isDone()) {
                return;
            }
            try {
                T result = op.attempt();
                if (result != null) {
                    done.setResult(result);
                }
            } catch (IOException e) {
                done.setException(e);
            }
        };
        if (forWrite) {
            loop.addWriter(channel, retry);
        } else {
            loop.addReader(channel, retry);
        }
        try {
            return await(done);
        } finally {
            if (forWrite) {
                loop.removeWriter(channel);
            } else {
                loop.removeReader(channel);
            }
        }
    }

    private static void checkNonBlocking(SelectableChannel channel) {
        if (channel.isBlocking()) {
            throw new IllegalArgumentException("the socket must be non-blocking");
        }
    }
}
