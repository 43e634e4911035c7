package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Objects;

/**
 * A stream transport (TCP or Unix domain) whose reads and writes are requests to a
 * completion-based loop ({@link Proactor}), as asyncio's {@code _ProactorSocketTransport}: no
 * readiness round trip, and the requests of a whole loop iteration reach the kernel together.
 *
 * <p>Reads: one receive at a time is in flight, into a direct buffer of the loop's pool; when it
 * completes, its bytes go to the protocol straight from that buffer (into the protocol's own
 * buffers for a {@link BufferedProtocol}, as many as it takes), then the next receive is asked for.
 * {@code pauseReading} asks for no more: a receive already in flight is left to complete and
 * what it brings (or its end of stream) is held, and delivered after {@code resumeReading}, as
 * asyncio does. Writes: bytes are copied into the {@link ProactorWriteQueue} and sent one chunk at
 * a time; the queue counts the send in flight, so {@code getWriteBufferSize} and the high/low
 * water marks see every byte the kernel has not yet reported sent. {@code writeEof} shuts the
 * write side once the queue drains. Closing asks the kernel to cancel what is in flight; the
 * channel closes on {@code connectionLost}, one loop turn after anything was asked for (every
 * request has reached the kernel, which then holds the socket until the request ends).
 */
public final class ProactorSocketTransport extends SelectorTransport<SocketChannel> implements Transport {
    private final Server server;
    private final Proactor proactor;
    private final Proactor.Operation reads;
    private final Proactor.Operation writes;
    private final ProactorBuffers pool;
    private final ProactorWriteQueue queue;
    private final WriteFlowControl flow;

    private BaseProtocol protocol;
    private Protocol streamProtocol;         // exactly one of these two is set
    private BufferedProtocol bufferedProtocol;
    /** The receive buffer: held while a receive is in flight or its bytes wait for resumeReading. */
    private ByteBuffer received;
    /** Bytes received while reading was paused (0: the end of the stream), to deliver on resume; -1: none. */
    private int held = -1;
    private boolean receiving;
    private boolean sending;
    private boolean readingPaused;
    private boolean readEnded;
    private boolean eof;

    ProactorSocketTransport(EventLoop loop, Proactor proactor, SocketChannel channel, BaseProtocol protocol,
                            Future<Void> waiter, Server server) {
        super(loop, channel, SocketTransport.remoteAddressOrNull(channel), server);
        this.server = server;
        this.proactor = proactor;
        this.reads = proactor.newOperation(channel, this::receiveCompleted);
        this.writes = proactor.newOperation(channel, this::sendCompleted);
        this.pool = ProactorBuffers.of(loop);
        this.queue = new ProactorWriteQueue(pool);
        this.flow = new WriteFlowControl(loop, this);
        SocketTransport.setNoDelay(channel);
        setProtocol(protocol);
        if (server != null) {
            server.attach(this);
        }
        loop.callSoon(this::connectionMade);
        loop.callSoon(() -> {
            if (isReading()) {
                receive();
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

    private void connectionMade() {
        if (streamProtocol != null) {
            streamProtocol.connectionMade(this);
        } else {
            bufferedProtocol.connectionMade(this);
        }
    }

    // ---- reading ----------------------------------------------------------------------------

    private void receive() {
        if (received == null) {
            received = pool.take();
        }
        receiving = true;
        reads.recv(received.clear());
    }

    private void receiveCompleted() {
        receiving = false;
        int n = reads.result();
        if (closing || connLost > 0) {
            giveBackReceiveBuffer(); // asyncio's close() cancels the read: what comes now is dropped
            return;
        }
        if (n < 0) {
            giveBackReceiveBuffer();
            fatalError(proactor.errorOf(n), "Fatal read error on socket transport");
        } else if (readingPaused) {
            held = n;
        } else {
            deliver(n);
        }
    }

    /** Hands {@code n} received bytes (0: the end of the stream) to the protocol, then reads on. */
    private void deliver(int n) {
        if (n == 0) {
            giveBackReceiveBuffer();
            readEnded = true;
            readEof();
            return;
        }
        ByteBuffer data = received.limit(n).position(0);
        if (streamProtocol != null) {
            try {
                streamProtocol.dataReceived(data);
            } catch (Throwable t) {
                giveBackReceiveBuffer();
                fatalError(t, "Fatal error: protocol.data_received() call failed.");
                return;
            }
        } else if (!feedBufferedProtocol(data)) {
            giveBackReceiveBuffer();
            return;
        }
        if (isReading() && connLost == 0) {
            receive();
        } else {
            giveBackReceiveBuffer();
        }
    }

    /** asyncio's {@code _feed_data_to_buffered_proto}: as many getBuffer/bufferUpdated rounds as the bytes need. */
    private boolean feedBufferedProtocol(ByteBuffer data) {
        while (data.hasRemaining() && connLost == 0) {
            ByteBuffer target;
            try {
                target = bufferedProtocol.getBuffer(data.remaining());
                if (target == null || !target.hasRemaining()) {
                    throw new IllegalStateException("get_buffer() returned an empty buffer");
                }
            } catch (Throwable t) {
                fatalError(t, "Fatal error: protocol.get_buffer() call failed.");
                return false;
            }
            int n = Math.min(target.remaining(), data.remaining());
            target.put(data.slice(data.position(), n));
            data.position(data.position() + n);
            try {
                bufferedProtocol.bufferUpdated(n);
            } catch (Throwable t) {
                fatalError(t, "Fatal error: protocol.buffer_updated() call failed.");
                return false;
            }
        }
        return true;
    }

    private void readEof() {
        boolean keepOpen;
        try {
            keepOpen = streamProtocol != null ? streamProtocol.eofReceived() : bufferedProtocol.eofReceived();
        } catch (Throwable t) {
            fatalError(t, "Fatal error: protocol.eof_received() call failed.");
            return;
        }
        if (!keepOpen) {
            close(); // else half-closed: nothing more to read, writing goes on
        }
    }

    private void giveBackReceiveBuffer() {
        if (received != null && !receiving) {
            pool.give(received);
            received = null;
        }
    }

    private void cancelReceive() {
        if (receiving) {
            reads.cancel();
        }
    }

    @Override
    public void pauseReading() {
        if (!isReading()) {
            return;
        }
        readingPaused = true; // a receive in flight completes; its bytes wait for resumeReading
    }

    @Override
    public void resumeReading() {
        if (closing || !readingPaused) {
            return;
        }
        readingPaused = false;
        loop.callSoon(this::readAgain);
    }

    private void readAgain() {
        if (!isReading() || connLost > 0) {
            return; // paused again, or closed, meanwhile
        }
        if (held >= 0) {
            int n = held;
            held = -1;
            deliver(n);
        } else if (!receiving && !readEnded) {
            receive();
        }
    }

    @Override
    public boolean isReading() {
        return !readingPaused && !closing;
    }

    // ---- writing ----------------------------------------------------------------------------

    @Override
    public void write(ByteBuffer data) {
        if (eof) {
            throw new IllegalStateException("Cannot call write() after write_eof()");
        }
        if (!data.hasRemaining()) {
            return;
        }
        if (connLost > 0) {
            dropWriteAfterConnectionLost();
            return;
        }
        queue.append(data);
        if (!sending) {
            send();
        }
        flow.pauseIfAboveHigh(queue.size());
    }

    private void send() {
        sending = true;
        writes.send(queue.head());
    }

    private void sendCompleted() {
        sending = false;
        int n = writes.result();
        queue.sendCompleted(n);
        if (connLost > 0) {
            return;
        }
        if (n < 0) {
            cancelReceive();
            fatalError(proactor.errorOf(n), "Fatal write error on socket transport");
            return;
        }
        if (!queue.isEmpty()) {
            send();
        }
        flow.resumeIfAtLow(queue.size()); // may write more: look at the queue only after it
        if (!queue.isEmpty()) {
            return;
        }
        if (closing) {
            connLost++; // as asyncio, connectionLost soon: the channel closes only after the loop's next wait
            loop.callSoon(() -> callConnectionLost(null));
        } else if (eof) {
            shutdownOutput();
        }
    }

    @Override
    public void writeEof() {
        if (closing || eof) {
            return;
        }
        eof = true;
        if (queue.isEmpty()) {
            shutdownOutput();
        }
    }

    private void shutdownOutput() {
        try {
            channel.shutdownOutput();
        } catch (IOException e) {
            cancelReceive();
            fatalError(e, "Fatal error on shutdown of the write side");
        }
    }

    @Override
    public boolean canWriteEof() {
        return true;
    }

    @Override
    public void setWriteBufferLimits(int high, int low) {
        flow.setLimits(high, low, queue.size());
    }

    @Override
    public int[] getWriteBufferLimits() {
        return flow.limits();
    }

    @Override
    public long getWriteBufferSize() {
        return queue.size();
    }

    // ---- closing ----------------------------------------------------------------------------

    @Override
    public void close() {
        if (!closing) {
            cancelReceive();
        }
        super.close();
    }

    @Override
    public void abort() {
        cancelReceive();
        super.abort();
    }

    @Override
    boolean hasBufferedWrites() {
        return !queue.isEmpty();
    }

    @Override
    void discardBufferedWrites() {
        if (sending) {
            writes.cancel();
        }
        queue.clear(sending);
    }

    /** The channel is closed: whatever is still in flight is cancelled (it holds the socket until it ends). */
    @Override
    void connectionLostCleanup() {
        cancelReceive();
        if (sending) {
            writes.cancel();
        }
        giveBackReceiveBuffer();
        if (server != null) {
            server.detach(this);
        }
    }

    // ---- the rest ---------------------------------------------------------------------------

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

    @Override
    public String toString() {
        String state = connLost > 0 ? "closed" : closing ? "closing" : "open";
        return "<ProactorSocketTransport " + state + " peer=" + peername + " bufsize=" + queue.size() + ">";
    }
}
