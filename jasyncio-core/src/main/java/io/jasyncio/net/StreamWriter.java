package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.util.CreationStack;
import io.jasyncio.util.ResourceWarnings;
import io.jasyncio.util.Throwables;
import io.jasyncio.task.Tasks;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.List;

/**
 * asyncio's {@code StreamWriter}: writes go straight to the transport (which buffers what the
 * socket does not take); {@link #drain()} is where a writer waits for the buffer to fall below
 * the low-water mark, and where a lost connection shows.
 *
 * <p>Text goes out through {@link #write(String, Charset)} and {@link #writeLine(String, Charset)}:
 * the charset is always the caller's (no platform default). A writer is {@link AutoCloseable}, so
 * {@code try (StreamWriter w = ...)} closes the connection when the block ends; see {@link #close()}.
 *
 * <p>A writer collected while its transport is open closes the transport with an "unclosed
 * &lt;StreamWriter ...&gt;" warning, as asyncio's {@code StreamWriter.__del__}: a connection whose
 * owner dropped it is closed even though the loop still watches it.
 */
public final class StreamWriter implements AutoCloseable {
    private Transport transport;
    private final StreamReaderProtocol protocol;
    private final StreamReader reader;
    private final EventLoop loop;
    private final ResourceWarnings.Tracker unclosed;

    /**
     * A writer on {@code transport}, waiting for {@code protocol}'s flow control and reporting
     * {@code reader}'s errors in {@link #drain()}.
     */
    @SuppressWarnings("this-escape") // the Cleaner only watches for this writer's collection
    public StreamWriter(Transport transport, StreamReaderProtocol protocol, StreamReader reader, EventLoop loop) {
        this.transport = transport;
        this.protocol = protocol;
        this.reader = reader;
        this.loop = loop;
        this.unclosed = ResourceWarnings.track(this, null, null,
                whenCollected(protocol, loop.getDebug() ? CreationStack.captureOutsideLibrary() : null));
    }

    /** The transport this writer writes to (replaced by {@link #startTls}). */
    public Transport transport() {
        return transport;
    }

    /**
     * Writes {@code data}: what the socket takes at once goes out now, the rest is buffered by the
     * transport (the array is not kept). Never waits; call {@link #drain()} to let a full buffer
     * empty, as asyncio's {@code write} then {@code drain}.
     */
    public void write(byte[] data) {
        transport.write(data);
    }

    /** Writes {@code text} encoded in {@code charset}, as {@link #write(byte[])}; no line ending is added. */
    public void write(String text, Charset charset) {
        transport.write(text.getBytes(charset));
    }

    /** Writes {@code line} and a {@code '\n'}, encoded in {@code charset}: the line {@link StreamReader#readLine(Charset)} reads. */
    public void writeLine(String line, Charset charset) {
        transport.write((line + '\n').getBytes(charset));
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

    /** Writes each array of {@code data} in order, as {@link #write(byte[])} of each. */
    public void writelines(List<byte[]> data) {
        transport.writelines(data);
    }

    /**
     * Closes the write side once the buffered bytes are sent (a TCP half-close: the peer reads
     * EOF, and this side can still read). Only where {@link #canWriteEof()} says so.
     */
    public void writeEof() {
        transport.writeEof();
    }

    /** Whether {@link #writeEof()} is possible here (not over TLS, as asyncio). */
    public boolean canWriteEof() {
        return transport.canWriteEof();
    }

    /**
     * Closes the connection: the buffered bytes are still sent, then the socket is closed and the
     * reader sees EOF. Returns at once, without waiting (a coroutine that must know the close is
     * complete awaits {@link #waitClosed()} afterwards). Call on the loop's thread; a second call
     * does nothing. This is what try-with-resources calls.
     */
    @Override
    public void close() {
        transport.close();
        unclosed.closed();
    }

    /** Whether the connection is closed or closing. */
    public boolean isClosing() {
        return transport.isClosing();
    }

    /** Coroutine: returns once the connection is closed (throws what closed it, if it failed). */
    public void waitClosed() {
        Tasks.await(protocol.closedFuture());
    }

    /** The transport's extra information {@code name} ("peername", "sockname", "socket", ...; asyncio's names), or null. */
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

    /**
     * The collected writer's release action (on the cleaner's thread): on the loop, closes the
     * protocol's transport if it is still open, and warns. Holds the protocol weakly: the loop
     * reaches it while it watches the transport, and a protocol only this reached would keep
     * its loop alive. A lambda over static methods, not a class of its own: a class first loaded
     * when a connection is made would need a file opened then, which fails when the process is
     * out of descriptors.
     */
    private static Runnable whenCollected(StreamReaderProtocol protocol, StackTraceElement[] creationStack) {
        WeakReference<StreamReaderProtocol> weakProtocol = new WeakReference<>(protocol);
        return () -> {
            StreamReaderProtocol p = weakProtocol.get();
            if (p == null || p.transport() == null) { // a racy read that only spares a wake-up: the loop looks again
                return;
            }
            try {
                p.loop().callSoonThreadsafe(() -> closeCollected(p, creationStack));
            } catch (IllegalStateException loopClosed) {
                // its transports were closed with it
            }
        };
    }

    private static void closeCollected(StreamReaderProtocol p, StackTraceElement[] creationStack) {
        Transport t = p.transport();
        if (t != null && !t.isClosing()) {
            t.close();
            ResourceWarnings.warn("<StreamWriter transport=" + t + ">", creationStack);
        }
    }

    @Override
    public String toString() {
        return "<StreamWriter transport=" + transport + (reader != null ? " reader=" + reader : "") + ">";
    }
}
