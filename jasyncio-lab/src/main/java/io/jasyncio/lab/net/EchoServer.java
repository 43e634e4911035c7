package io.jasyncio.lab.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.function.IntConsumer;

/**
 * An echo server straight on {@code addReader}/{@code addWriter}: every byte read is written
 * back. An optional handler runs first for each read (the lab's "handler-heavy" workload), with
 * the number of bytes read. Reading pauses while a write is pending, so nothing buffers without
 * bound.
 */
public final class EchoServer extends LoopServer<EchoServer.Connection> {
    private final IntConsumer onRead;

    private EchoServer(EventLoop loop, IntConsumer onRead) throws IOException {
        super(loop, 128);
        this.onRead = onRead;
    }

    /** Listens on 127.0.0.1 (an ephemeral port); call on the loop thread, or before the loop runs. */
    public static EchoServer start(EventLoop loop, IntConsumer onRead) throws IOException {
        return new EchoServer(loop, onRead);
    }

    @Override
    Connection connect(SocketChannel channel) {
        return new Connection(channel);
    }

    final class Connection implements ClientConnection {
        final SocketChannel channel;
        final ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);

        Connection(SocketChannel channel) {
            this.channel = channel;
        }

        @Override
        public void onReadable() {
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

        @Override
        public void close() {
            release(this, channel);
        }
    }
}
