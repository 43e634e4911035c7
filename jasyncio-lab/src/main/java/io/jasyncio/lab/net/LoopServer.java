package io.jasyncio.lab.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.Channel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The listening half of the lab's servers, straight on {@code addReader}: a socket on 127.0.0.1
 * (an ephemeral port) that wraps every accepted connection (already non-blocking, Nagle off) in
 * the server's own {@link ClientConnection}, reads from it at once, and keeps it until it is
 * {@linkplain #release released}.
 */
abstract class LoopServer<C extends LoopServer.ClientConnection> implements AutoCloseable {
    /** One accepted connection as its server handles it. */
    interface ClientConnection {
        /** Called by the loop when the connection's socket is readable. */
        void onReadable();

        /** Closes the connection (and releases it). */
        void close();
    }

    final EventLoop loop;
    private final ServerSocketChannel server;
    private final List<C> connections = new ArrayList<>();

    /** Starts listening; call on the loop thread, or before the loop runs. */
    LoopServer(EventLoop loop, int backlog) throws IOException {
        this.loop = loop;
        this.server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress("127.0.0.1", 0), backlog);
        server.configureBlocking(false);
        loop.addReader(server, this::accept);
    }

    /** Wraps a newly accepted connection. */
    abstract C connect(SocketChannel channel);

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
                C c = connect(channel);
                connections.add(c);
                loop.addReader(channel, c::onReadable);
            }
        } catch (IOException e) {
            // a connection that failed while being accepted is simply gone
        }
    }

    /**
     * Forgets a closing connection and releases its socket (off the loop, then closed); does
     * nothing if it was released already.
     */
    void release(C connection, SocketChannel channel) {
        if (connections.remove(connection)) {
            loop.removeReader(channel);
            loop.removeWriter(channel);
            closeQuietly(channel);
        }
    }

    /** Stops listening and closes every connection; call on the loop thread. */
    @Override
    public void close() {
        loop.removeReader(server);
        closeQuietly(server);
        for (C c : List.copyOf(connections)) {
            c.close();
        }
    }

    private static void closeQuietly(Channel c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing: nothing left to do with it
        }
    }
}
