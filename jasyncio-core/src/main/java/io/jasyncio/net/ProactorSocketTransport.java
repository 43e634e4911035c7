package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.net.spi.Proactor;

import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * A stream transport (TCP or Unix domain) whose reads and writes are requests to a
 * completion-based loop ({@link Proactor}), as asyncio's {@code _ProactorSocketTransport}: no
 * readiness round trip, and the requests of a whole loop iteration reach the kernel together.
 * Reads by {@link CompletionReads}, writes by a {@link WriteQueue} by completion. Closing asks the
 * kernel to cancel what is in flight; the channel closes on {@code connectionLost}, one loop turn
 * after anything was asked for (every request has reached the kernel, which then holds the socket
 * until the request ends).
 */
final class ProactorSocketTransport extends ChannelTransport<SocketChannel> implements Transport {
    /**
     * The classes a connection needs, loaded with this one (Network loads it with the first loop
     * whose backend is a proactor): a first connection accepted when no descriptor is left could
     * not open their class files.
     */
    static final List<Class<?>> HELPERS = List.of(ProactorWriteQueue.class, WriteQueue.class, WriteFlowControl.class,
            LendingProtocol.class, CompletionReads.class);

    private final CompletionReads reads;
    private final WriteQueue writes;

    /** Wraps {@code channel} and starts it as asyncio does (see {@link SocketTransport}). */
    ProactorSocketTransport(EventLoop loop, Proactor proactor, SocketChannel channel, BaseProtocol protocol,
                            Future<Void> waiter, Server server) {
        super(loop, channel, "socket", SocketSetup.remoteAddressOrNull(channel), SocketSetup.localAddressOrNull(channel), server);
        SocketSetup.setNoDelay(channel);
        setProtocol(protocol);
        this.reads = new CompletionReads(this, proactor);
        this.writes = WriteQueue.completion(this, proactor);
        startSoon(this, reads::start, waiter);
    }

    @Override
    void stopReading() {
        reads.stop();
    }

    @Override
    void readingResumed() {
        reads.resume();
    }

    @Override
    public void write(ByteBuffer data) {
        writes.write(data);
    }

    @Override
    public void writeEof() {
        writes.writeEof();
    }

    @Override
    public boolean canWriteEof() {
        return true;
    }

    @Override
    long bufferedBytes() {
        return writes.size();
    }

    @Override
    void discardBufferedWrites() {
        writes.discard();
    }

    /** The channel is closed: whatever is still in flight is cancelled (it holds the socket until it ends). */
    @Override
    void connectionLostCleanup() {
        reads.stop();
        writes.connectionLost();
    }

    /** Whether a receive is in flight (for tests). */
    boolean receiveInFlight() {
        return reads.inFlight();
    }

    /** How many bytes are held for resumeReading (for tests). */
    int heldBytes() {
        return reads.heldBytes();
    }

    @Override
    public String toString() {
        return "<ProactorSocketTransport " + state() + " peer=" + peername + " bufsize=" + bufferedBytes() + ">";
    }
}
