package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.util.CreationStack;
import io.jasyncio.util.ResourceWarnings;

import java.io.IOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Objects;

/**
 * What every transport over one channel is, written once (asyncio repeats it in
 * {@code _SelectorTransport}, {@code _ProactorBasePipeTransport} and the two Unix pipe
 * transports): the channel, its protocol, the closing state and the way down, pausing and
 * resuming reading, the write flow control over the transport's own count of buffered bytes, and
 * the tracking of a transport collected without being closed. Each transport is a small final
 * class over this one that composes how it reads ({@link ReadinessReads}, {@link CompletionReads})
 * and how it writes ({@link WriteQueue}); no transport extends another.
 *
 * <p>The way down, as asyncio: {@link #close()} stops reading and, once the buffered writes are
 * out, loses the connection; {@link #abort()} and a fatal error drop the buffered writes and
 * lose it at once. Losing it means {@code connectionLost} exactly once, soon (never inline from
 * the call that closed), then the channel closed. A transport collected without being closed
 * has its channel closed by its tracker ({@link CollectedTransport}; "unclosed transport" is
 * warned in debug mode).
 */
abstract class ChannelTransport<C extends SelectableChannel> implements BaseTransport {
    /** After this many writes on a lost connection, asyncio starts to warn. */
    static final int LOG_THRESHOLD_FOR_CONNLOST_WRITES = 5;
    private static final System.Logger LOG = System.getLogger("io.jasyncio.net");
    /**
     * Loaded with this class, not at a connection's first buffered write (when the flow control
     * is made) or first read (when the protocol is asked whether it lends room): then the process
     * may be out of descriptors, and a class file could not be opened.
     */
    private static final List<Class<?>> LOADED_WITH_TRANSPORTS = List.of(WriteFlowControl.class, LendingProtocol.class,
            WriteQueue.class, WriteBuffer.class, ReadinessReads.class);

    final EventLoop loop;
    final C channel;
    /** What extra info names the channel: "socket" or "pipe". */
    private final String channelName;
    /** For a socket, its addresses at the start (null if unknown or, for peername, unconnected); null for a pipe. */
    final Object peername;
    final Object sockname;
    /** The server that accepted the connection (it counts the connection until it is lost), or null. */
    private final Server server;
    /** close() (or an abort, a fatal error, the end of a pipe) began: nothing more is read. */
    boolean closing;
    /** Zero while connected; once the connection is lost (connectionLost scheduled), 1 plus the writes attempted since. */
    int connLost;
    /** pauseReading was called (and resumeReading not since). */
    boolean readingPaused;
    private BaseProtocol protocol;   // read through getProtocol()
    /** The protocol as the read paths call it: at most one of these two is set. */
    Protocol streamProtocol;
    BufferedProtocol bufferedProtocol;
    /** The high/low water marks over {@link #bufferedBytes()}, and whether the protocol was told to pause; made when first needed. */
    private WriteFlowControl flow;
    private final ResourceWarnings.Tracker unclosed;

    /**
     * A transport over {@code channel}, which extra info calls {@code channelName} ("socket" or
     * "pipe"); {@code server}: the server that accepted the connection, or null.
     */
    ChannelTransport(EventLoop loop, C channel, String channelName, Object peername, Object sockname, Server server) {
        this.loop = loop;
        this.channel = channel;
        this.channelName = channelName;
        this.peername = peername;
        this.sockname = sockname;
        this.server = server;
        boolean debug = loop.getDebug();
        this.unclosed = ResourceWarnings.track(this, debug ? "transport " + describe() : null,
                debug ? CreationStack.captureOutsideLibrary() : null, new CollectedTransport(loop, channel, server));
    }

    /** How the unclosed-transport warning names this transport (called by the constructor). */
    private String describe() {
        String name = getClass().getSimpleName();
        return peername == null && sockname == null ? "<" + name + ">"
                : "<" + name + " peer=" + peername + " local=" + sockname + ">";
    }

    // ---- what each transport tells the base ---------------------------------------------------

    /** Bytes accepted by write but not yet taken by the kernel. */
    abstract long bufferedBytes();

    /** Whether writes wait to go out (close waits for them). */
    boolean hasBufferedWrites() {
        return bufferedBytes() > 0;
    }

    /** Drops every buffered write (on abort or a fatal error); the writer callback is removed after. */
    abstract void discardBufferedWrites();

    /** Nothing more is read: the reader callback is removed (a proactor transport cancels its receive). */
    void stopReading() {
        loop.removeReader(channel);
    }

    /** resumeReading: reading goes on (the transport was paused, not closing). */
    void readingResumed() {
    }

    /** Runs last when the connection is lost, after the channel is closed. */
    void connectionLostCleanup() {
    }

    // ---- the start of a stream connection -----------------------------------------------------

    /**
     * Starts a stream connection as asyncio does, each step soon, in order: {@code connectionMade},
     * then {@code startReading} (unless paused or closed meanwhile), then the {@code waiter}'s
     * result (when not null). {@code self} is this transport, as its protocol sees it.
     */
    final void startSoon(Transport self, Runnable startReading, Future<Void> waiter) {
        if (server != null) {
            server.attach(self);
        }
        loop.callSoon(() -> {
            if (streamProtocol != null) {
                streamProtocol.connectionMade(self);
            } else {
                bufferedProtocol.connectionMade(self);
            }
        });
        loop.callSoon(() -> {
            if (isReading()) {
                startReading.run();
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

    /** The protocol when it lends room in its own buffer to read into (see {@link LendingProtocol}), else null. */
    final LendingProtocol lender() {
        return streamProtocol instanceof LendingProtocol lending ? lending : null;
    }

    /**
     * The peer ended its side of a stream: the protocol's eofReceived says whether the transport
     * stays open (then {@link #halfClosed()}: nothing more to read, writing goes on) or closes.
     */
    void readEof() {
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

    // ---- the protocol -------------------------------------------------------------------------

    @Override
    public BaseProtocol getProtocol() {
        return protocol;
    }

    /**
     * A stream socket's protocol: a {@link Protocol} or a {@link BufferedProtocol}; a pipe's is
     * taken as it is (asyncio's pipe transports check none).
     */
    @Override
    public void setProtocol(BaseProtocol protocol) {
        Objects.requireNonNull(protocol, "protocol");
        if (channel instanceof SocketChannel && !(protocol instanceof BufferedProtocol) && !(protocol instanceof Protocol)) {
            throw new IllegalArgumentException("a stream transport needs a Protocol or a BufferedProtocol, not " + protocol);
        }
        protocolIs(protocol);
    }

    /** Sets the protocol as it is (the read paths call it as a Protocol or a BufferedProtocol, whichever it is). */
    final void protocolIs(BaseProtocol protocol) {
        this.protocol = protocol;
        this.bufferedProtocol = protocol instanceof BufferedProtocol buffered ? buffered : null;
        this.streamProtocol = bufferedProtocol == null && protocol instanceof Protocol stream ? stream : null;
    }

    // ---- reading paused and resumed -----------------------------------------------------------

    /** Stops delivering data to the protocol until {@link #resumeReading}; no-op when not reading (asyncio 3.7+). */
    public void pauseReading() {
        if (!isReading()) {
            return;
        }
        readingPaused = true;
        stopReading();
    }

    /** Delivers data to the protocol again after {@link #pauseReading}; no-op when not paused or closing. */
    public void resumeReading() {
        if (closing || !readingPaused) {
            return;
        }
        readingPaused = false;
        readingResumed();
    }

    /** Whether the transport delivers data to its protocol: not paused and not closing. */
    public boolean isReading() {
        return !readingPaused && !closing;
    }

    // ---- writes after the end -----------------------------------------------------------------

    /**
     * A write after the connection was lost is dropped, as asyncio; past a few, each one warns
     * ({@code warning}: asyncio's words for this transport), so a sender that goes on is not silent.
     */
    final void dropWriteAfterConnectionLost(String warning) {
        if (connLost >= LOG_THRESHOLD_FOR_CONNLOST_WRITES) {
            LOG.log(System.Logger.Level.WARNING, warning);
        }
        connLost++;
    }

    // ---- write flow control -------------------------------------------------------------------

    /** The flow control, made at its first use: an idle connection (nothing ever buffered, default marks) holds none. */
    private WriteFlowControl flow() {
        if (flow == null) {
            flow = new WriteFlowControl(loop, this);
        }
        return flow;
    }

    /** After a write was buffered: past the high water mark, the protocol's pauseWriting (once until resumed). */
    final void pauseProtocolIfAboveHigh() {
        flow().pauseIfAboveHigh(bufferedBytes());
    }

    /** After buffered bytes went out: down to the low water mark, the protocol's resumeWriting (which may write again). */
    final void resumeProtocolIfAtLow() {
        if (flow != null) { // else nothing was ever buffered past a mark: never paused
            flow.resumeIfAtLow(bufferedBytes());
        }
    }

    /** Sets the high and low water marks of write flow control (asyncio's set_write_buffer_limits). */
    public void setWriteBufferLimits(int high, int low) {
        flow().setLimits(high, low, bufferedBytes());
    }

    /** The high and low water marks, in that order. */
    public int[] getWriteBufferLimits() {
        return flow == null ? new int[] {Transport.DEFAULT_HIGH_WATER, Transport.DEFAULT_LOW_WATER} : flow.limits();
    }

    /** The bytes buffered to write, not yet handed to the kernel. */
    public long getWriteBufferSize() {
        return bufferedBytes();
    }

    // ---- the way down -------------------------------------------------------------------------

    @Override
    public void close() {
        if (closing) {
            return;
        }
        closing = true;
        stopReading();
        if (!hasBufferedWrites()) {
            connLost++;
            loop.removeWriter(channel);
            loop.callSoon(() -> callConnectionLost(null));
        }
    }

    /** Closes at once: buffered writes are dropped, and {@code connectionLost(null)} follows soon. */
    public void abort() {
        forceClose(null);
    }

    @Override
    public boolean isClosing() {
        return closing;
    }

    /** Reports {@code exc} (a reset goes to the log quietly, as asyncio) and stops at once. */
    final void fatalError(Throwable exc, String message) {
        Throwable cause = ConnectionResetException.ifReset(exc);
        FatalErrors.report(loop, cause, message, this, getProtocol());
        forceClose(cause);
    }

    /** Stops at once: the buffered writes are dropped, nothing more is read; connectionLost({@code exc}) soon. */
    final void forceClose(Throwable exc) {
        if (connLost > 0) {
            return;
        }
        if (hasBufferedWrites()) {
            discardBufferedWrites();
            loop.removeWriter(channel);
        }
        if (!closing) {
            closing = true;
            stopReading();
        }
        connLost++;
        loop.callSoon(() -> callConnectionLost(exc));
    }

    /** The buffered writes are out after close(): the connection is lost now. */
    final void writesDrainedWhileClosing() {
        connLost++; // lost from now on: later writes are dropped, abort() has nothing left to do
        callConnectionLost(null);
    }

    /** The connection is lost soon, not now (a completion transport: the channel closes only after the loop's next wait). */
    final void loseSoon() {
        connLost++;
        loop.callSoon(() -> callConnectionLost(null));
    }

    final void callConnectionLost(Throwable exc) {
        try {
            getProtocol().connectionLost(exc);
        } finally {
            loop.removeReader(channel);
            loop.removeWriter(channel);
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing left to do with it
            }
            unclosed.closed();
            connectionLostCleanup();
            if (server != null) {
                server.detach(this);
            }
        }
    }

    /** "open", "closing" or "closed", for toString. */
    final String state() {
        return connLost > 0 ? "closed" : closing ? "closing" : "open";
    }

    /** A socket's addresses and the socket itself, or a pipe. */
    @Override
    public Object getExtraInfo(String name) {
        return switch (name) {
            case "peername" -> peername;
            case "sockname" -> sockname;
            default -> name.equals(channelName) ? channel : null;
        };
    }
}
