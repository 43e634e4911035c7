package io.jasyncio.net;

import io.jasyncio.util.CreationStack;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.util.ResourceWarnings;

import java.io.IOException;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectableChannel;

/**
 * What the loop-driven transports share, as asyncio's {@code _SelectorTransport}: the channel
 * and its addresses as extra info, the closing state, the count of writes on a lost connection,
 * and the way down (close once the write buffer drains, force-close on abort or a fatal error,
 * then connectionLost soon and the channel closed).
 * Each subclass keeps its own reading and its own write buffer, seen here only through
 * {@link #hasBufferedWrites()} and {@link #discardBufferedWrites()}.
 * A transport collected without being closed has its channel closed by its tracker
 * ({@link CollectedTransport}; "unclosed transport" is warned in debug mode).
 */
abstract class SelectorTransport<C extends SelectableChannel & NetworkChannel> implements BaseTransport {
    /** After this many writes on a lost connection, asyncio starts to warn. */
    static final int LOG_THRESHOLD_FOR_CONNLOST_WRITES = 5;
    private static final System.Logger LOG = System.getLogger("io.jasyncio.net");

    final EventLoop loop;
    final C channel;
    /** The addresses at the start (null if unknown or, for peername, unconnected). */
    final Object peername;
    final Object sockname;
    boolean closing;
    /** Zero while connected; once the connection is lost, 1 plus the writes attempted since. */
    int connLost;
    private final ResourceWarnings.Tracker unclosed;

    SelectorTransport(EventLoop loop, C channel, Object peername) {
        this(loop, channel, peername, null);
    }

    /** {@code server}: the server that accepted the connection, or null. */
    SelectorTransport(EventLoop loop, C channel, Object peername, Server server) {
        this.loop = loop;
        this.channel = channel;
        this.peername = peername;
        Object local;
        try {
            local = channel.getLocalAddress();
        } catch (IOException e) {
            local = null;
        }
        this.sockname = local;
        boolean debug = loop.getDebug();
        this.unclosed = ResourceWarnings.track(this,
                debug ? "transport <" + getClass().getSimpleName() + " peer=" + peername + " local=" + local + ">" : null,
                debug ? CreationStack.captureOutsideLibrary() : null, new CollectedTransport(loop, channel, server));
    }

    /**
     * A write after the connection was lost is dropped, as asyncio; past a few, each one warns
     * (asyncio's "socket.send() raised exception."), so a sender that goes on is not silent.
     */
    final void dropWriteAfterConnectionLost() {
        if (connLost >= LOG_THRESHOLD_FOR_CONNLOST_WRITES) {
            LOG.log(System.Logger.Level.WARNING, "socket.send() raised exception.");
        }
        connLost++;
    }

    /** Whether writes wait in the buffer for the channel to become writable. */
    abstract boolean hasBufferedWrites();

    /** Drops every buffered write (the writer callback is removed by the caller). */
    abstract void discardBufferedWrites();

    /** Runs last when the connection is lost, after the channel is closed. */
    void connectionLostCleanup() {
    }

    @Override
    public void close() {
        if (closing) {
            return;
        }
        closing = true;
        loop.removeReader(channel);
        if (!hasBufferedWrites()) {
            connLost++;
            loop.removeWriter(channel);
            loop.callSoon(() -> callConnectionLost(null));
        }
    }

    public void abort() {
        forceClose(null);
    }

    @Override
    public boolean isClosing() {
        return closing;
    }

    @Override
    public Object getExtraInfo(String name) {
        return switch (name) {
            case "peername" -> peername;
            case "sockname" -> sockname;
            case "socket" -> channel;
            default -> null;
        };
    }

    final void fatalError(Throwable exc, String message) {
        Throwable cause = ConnectionResetException.ifReset(exc);
        FatalErrors.report(loop, cause, message, this, getProtocol());
        forceClose(cause);
    }

    private void forceClose(Throwable exc) {
        if (connLost > 0) {
            return;
        }
        if (hasBufferedWrites()) {
            discardBufferedWrites();
            loop.removeWriter(channel);
        }
        if (!closing) {
            closing = true;
            loop.removeReader(channel);
        }
        connLost++;
        loop.callSoon(() -> callConnectionLost(exc));
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
        }
    }
}
