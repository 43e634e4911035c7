package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.Objects;

/**
 * What the two stream-socket transports share, whichever way they move bytes (readiness:
 * {@link SocketTransport}; completion: {@link ProactorSocketTransport}): the protocol, as a
 * {@link Protocol} or a {@link BufferedProtocol}; the start, as asyncio does it, each step soon,
 * in order (connectionMade, then reading, then the waiter's result); the end of the stream handed
 * to {@code eofReceived}; pausing and resuming reading; and the accepting server's bookkeeping.
 */
abstract class StreamSocketTransport extends SelectorTransport<SocketChannel> implements Transport {
    private final Server server;
    private BaseProtocol protocol;   // read through getProtocol()
    Protocol streamProtocol;         // exactly one of these two is set
    BufferedProtocol bufferedProtocol;
    boolean eof;                     // writeEof was called
    boolean readingPaused;           // pauseReading was called (and resumeReading not since)

    /** {@code waiter} (may be null) gets its result once the protocol knows the connection. */
    StreamSocketTransport(EventLoop loop, SocketChannel channel, BaseProtocol protocol, Future<Void> waiter, Server server) {
        super(loop, channel, remoteAddressOrNull(channel), server);
        this.server = server;
        setNoDelay(channel);
        setProtocol(protocol);
        if (server != null) {
            server.attach(this);
        }
        loop.callSoon(this::connectionMade);
        loop.callSoon(() -> {
            if (isReading()) {
                startReading();
            }
        });
        if (waiter != null) {
            loop.callSoon(() -> {
                if (!waiter.isDone()) {
                    waiter.setResult(null);
                }
            });
        }
    }

    /** Starts reading (the transport is not paused); runs soon after construction, after connectionMade. */
    abstract void startReading();

    /** The protocol when it lends room in its own buffer to read into (see {@link LendingProtocol}), else null. */
    final LendingProtocol lender() {
        return streamProtocol instanceof LendingProtocol lending ? lending : null;
    }

    @Override
    public final void pauseReading() {
        if (!isReading()) {
            return;
        }
        readingPaused = true;
        stopReading();
    }

    @Override
    public final void resumeReading() {
        if (closing || !readingPaused) {
            return;
        }
        readingPaused = false;
        readingResumed();
    }

    /** resumeReading: reading goes on (the transport was paused, not closing). */
    abstract void readingResumed();

    @Override
    public final boolean isReading() {
        return !readingPaused && !closing;
    }

    /** writeEof: the write side shuts once the buffered writes are out (asyncio's write_eof). */
    @Override
    public void writeEof() {
        if (closing || eof) {
            return;
        }
        eof = true;
        if (!hasBufferedWrites()) {
            shutdownOutput();
        }
    }

    /** Shuts the write side of the socket now (a failure is fatal to the transport). */
    abstract void shutdownOutput();

    @Override
    public boolean canWriteEof() {
        return true;
    }

    /** As asyncio: TCP connections do not wait to coalesce small writes (Nagle off). */
    private static void setNoDelay(SocketChannel channel) {
        try {
            if (channel.supportedOptions().contains(StandardSocketOptions.TCP_NODELAY)) {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
        } catch (IOException ignored) {
            // not fatal: the connection works, only small writes may wait
        }
    }

    private static Object remoteAddressOrNull(SocketChannel channel) {
        try {
            return channel.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
    }

    private void connectionMade() {
        if (streamProtocol != null) {
            streamProtocol.connectionMade(this);
        } else {
            bufferedProtocol.connectionMade(this);
        }
    }

    /** The peer ended its side: the protocol's eofReceived says whether the transport stays open. */
    final void readEof() {
        boolean keepOpen;
        try {
            keepOpen = streamProtocol != null ? streamProtocol.eofReceived() : bufferedProtocol.eofReceived();
        } catch (Throwable t) {
            fatalError(t, "Fatal error: protocol.eof_received() call failed.");
            return;
        }
        if (keepOpen) {
            halfClosed();
        } else {
            close();
        }
    }

    /** The peer ended its side and the protocol keeps the transport open: nothing more to read, writing goes on. */
    void halfClosed() {
    }

    @Override
    void connectionLostCleanup() {
        if (server != null) {
            server.detach(this);
        }
    }

    @Override
    public BaseProtocol getProtocol() {
        return protocol;
    }

    @Override
    public void setProtocol(BaseProtocol protocol) {
        Objects.requireNonNull(protocol, "protocol");
        if (protocol instanceof BufferedProtocol buffered) {
            this.bufferedProtocol = buffered;
            this.streamProtocol = null;
        } else if (protocol instanceof Protocol stream) {
            this.streamProtocol = stream;
            this.bufferedProtocol = null;
        } else {
            throw new IllegalArgumentException("a stream transport needs a Protocol or a BufferedProtocol, not " + protocol);
        }
        this.protocol = protocol;
    }
}
