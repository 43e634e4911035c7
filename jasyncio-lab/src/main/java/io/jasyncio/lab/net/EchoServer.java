package io.jasyncio.lab.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * An echo server straight on {@code addReader}/{@code addWriter}: every byte read is written
 * back. An optional handler runs first for each read (the lab's "handler-heavy" workload), with
 * the number of bytes read. Reading pauses while a write is pending, so nothing buffers without
 * bound.
 */
public final class EchoServer implements AutoCloseable {
    private final EventLoop loop;
    private final ServerSocketChannel server;
    private final IntConsumer onRead;
    private final List<Connection> connections = new ArrayList<>();

    private EchoServer(EventLoop loop, ServerSocketChannel server, IntConsumer onRead) {
        this.loop = loop;
        this.server = server;
        this.onRead = onRead;
    }

    /** Listens on 127.0.0.1 (an ephemeral port); call on the loop thread, or before the loop runs. */
    public static EchoServer start(EventLoop loop, IntConsumer onRead) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress("127.0.0.1", 0), 128);
        server.configureBlocking(false);
        EchoServer s = new EchoServer(loop, server, onRead);
        loop.addReader(server, s::accept);
        return s;
    }

    public int port() {
        try {
            return ((InetSocketAddress) server.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void accept() {
        try {
            SocketChannel channel;
            while ((channel = server.accept()) != null) {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                Connection c = new Connection(channel);
                connections.add(c);
                loop.addReader(channel, c::onReadable);
            }
        } catch (IOException e) {
            // a connection that failed while being accepted is simply gone
        }
    }

    /** Stops listening and closes every connection; call on the loop thread. */
    @Override
    public void close() {
        loop.removeReader(server);
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Connection c : List.copyOf(connections)) {
            c.close();
        }
    }

    private final class Connection {
        final SocketChannel channel;
        final ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);

        Connection(SocketChannel channel) {
            this.channel = channel;
        }

        void onReadable() {
            int n;
            try {
                n = channel.read(buffer.clear());
            } catch (IOException e) {
                close();
                return;
            }
            if (n < 0) {
                close();
                return;
            }
            onRead.accept(n);
            buffer.flip();
            if (write() && buffer.hasRemaining()) {
                loop.removeReader(channel);
                loop.addWriter(channel, this::onWritable);
            }
        }

        void onWritable() {
            if (write() && !buffer.hasRemaining()) {
                loop.removeWriter(channel);
                loop.addReader(channel, this::onReadable);
            }
        }

        /** Writes what it can; false if the connection failed (and is now closed). */
        boolean write() {
            try {
                channel.write(buffer);
                return true;
            } catch (IOException e) {
                close();
                return false;
            }
        }

        void close() {
            if (connections.remove(this)) {
                loop.removeReader(channel);
                loop.removeWriter(channel);
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }
    }
}
