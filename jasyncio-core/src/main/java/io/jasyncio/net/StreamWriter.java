package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.util.Throwables;
import io.jasyncio.task.Tasks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * asyncio's {@code StreamWriter}: writes go straight to the transport (which buffers what the
 * socket does not take); {@link #drain()} is where a writer waits for the buffer to fall below
 * the low-water mark, and where a lost connection shows.
 */
public final class StreamWriter {
    private Transport transport;
    private final StreamReaderProtocol protocol;
    private final StreamReader reader;
    private final EventLoop loop;

    public StreamWriter(Transport transport, StreamReaderProtocol protocol, StreamReader reader, EventLoop loop) {
        this.transport = transport;
        this.protocol = protocol;
        this.reader = reader;
        this.loop = loop;
    }

    public Transport transport() {
        return transport;
    }

    public void write(byte[] data) {
        transport.write(data);
    }

    /**
     * Writes {@code data}'s remaining bytes: what the socket takes at once goes straight from
     * {@code data}, the rest is copied before this returns, so {@code data} (a
     * {@link StreamReader#readView(int) view}, a reused buffer) is free again afterwards. A direct
     * buffer spares NIO's copy of a heap one: the cheap way to send large payloads.
     */
    public void write(ByteBuffer data) {
        transport.write(data);
    }

    public void writelines(List<byte[]> data) {
        transport.writelines(data);
    }

    public void writeEof() {
        transport.writeEof();
    }

    public boolean canWriteEof() {
        return transport.canWriteEof();
    }

    public void close() {
        transport.close();
    }

    public boolean isClosing() {
        return transport.isClosing();
    }

    /** Coroutine: returns once the connection is closed (throws what closed it, if it failed). */
    public void waitClosed() {
        Tasks.await(protocol.closedFuture());
    }

    public Object getExtraInfo(String name) {
        return transport.getExtraInfo(name);
    }

    /**
     * Coroutine: waits until the write buffer is below its high-water mark (at once if it is),
     * and throws if the reader saw an error or the connection was lost.
     */
    public void drain() throws IOException {
        if (reader != null) {
            Throwable exc = reader.exception();
            if (exc != null) {
                throw Throwables.sneakyThrow(exc);
            }
        }
        if (transport.isClosing()) {
            // Let connectionLost run first, so drain reports the lost connection (asyncio's sleep(0)).
            Tasks.yieldNow();
        }
        protocol.drainHelper();
    }

    /** Coroutine: upgrades this connection to TLS (asyncio's StreamWriter.start_tls). */
    public void startTls(TlsOptions tls) throws IOException {
        boolean serverSide = protocol.isServerSide();
        drain();
        Transport upgraded = Network.startTls(loop, transport, protocol, tls, serverSide);
        transport = upgraded;
        protocol.replaceTransport(upgraded);
    }

    @Override
    public String toString() {
        return "<StreamWriter transport=" + transport + (reader != null ? " reader=" + reader : "") + ">";
    }
}
