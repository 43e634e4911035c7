package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
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
        int n;
        try {
            n = channel.read(buf);
        } catch (IOException e) {
            throw ConnectionResetException.ifReset(e);
        }
        if (n != 0) {
            return Math.max(n, 0);
        }
        Future<Integer> done = loop.createFuture();
        loop.addReader(channel, () -> {
            if (done.isDone()) {
                return;
            }
            try {
                int r = channel.read(buf);
                if (r != 0) {
                    done.setResult(Math.max(r, 0));
                }
            } catch (IOException e) {
                done.setException(ConnectionResetException.ifReset(e));
            }
        });
        try {
            return await(done);
        } finally {
            loop.removeReader(channel);
        }
    }

    /** Coroutine: sends all of {@code data}, waiting for the socket as needed. */
    public static void sockSendall(EventLoop loop, SocketChannel channel, ByteBuffer data) throws IOException {
        checkNonBlocking(channel);
        channel.write(data);
        if (!data.hasRemaining()) {
            return;
        }
        Future<Void> done = loop.createFuture();
        loop.addWriter(channel, () -> {
            if (done.isDone()) {
                return;
            }
            try {
                channel.write(data);
                if (!data.hasRemaining()) {
                    done.setResult(null);
                }
            } catch (IOException e) {
                done.setException(e);
            }
        });
        try {
            await(done);
        } finally {
            loop.removeWriter(channel);
        }
    }

    public static void sockSendall(EventLoop loop, SocketChannel channel, byte[] data) throws IOException {
        sockSendall(loop, channel, ByteBuffer.wrap(data));
    }

    /** Coroutine: connects {@code channel} to {@code address} (a host name is resolved off the loop). */
    public static void sockConnect(EventLoop loop, SocketChannel channel, SocketAddress address) throws IOException {
        checkNonBlocking(channel);
        if (address instanceof InetSocketAddress inet && inet.isUnresolved()) {
            address = Network.resolve(loop, inet.getHostString(), inet.getPort()).getFirst();
        }
        if (channel.connect(address)) {
            return;
        }
        Future<Void> done = loop.createFuture();
        loop.addWriter(channel, () -> {
            if (done.isDone()) {
                return;
            }
            try {
                if (channel.finishConnect()) {
                    done.setResult(null);
                }
            } catch (IOException e) {
                done.setException(e);
            }
        });
        try {
            await(done);
        } finally {
            loop.removeWriter(channel);
        }
    }

    /** Coroutine: the next connection on {@code server}, non-blocking (its peer: getRemoteAddress()). */
    public static SocketChannel sockAccept(EventLoop loop, ServerSocketChannel server) throws IOException {
        checkNonBlocking(server);
        SocketChannel accepted = server.accept();
        if (accepted == null) {
            Future<SocketChannel> done = loop.createFuture();
            loop.addReader(server, () -> {
                if (done.isDone()) {
                    return;
                }
                try {
                    SocketChannel c = server.accept();
                    if (c != null) {
                        done.setResult(c);
                    }
                } catch (IOException e) {
                    done.setException(e);
                }
            });
            try {
                accepted = await(done);
            } finally {
                loop.removeReader(server);
            }
        }
        accepted.configureBlocking(false);
        return accepted;
    }

    private static void checkNonBlocking(SelectableChannel channel) {
        if (channel.isBlocking()) {
            throw new IllegalArgumentException("the socket must be non-blocking");
        }
    }
}
