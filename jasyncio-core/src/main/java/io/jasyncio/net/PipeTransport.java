package io.jasyncio.net;

import io.jasyncio.util.CreationStack;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.util.ResourceWarnings;

import java.io.IOException;
import java.nio.channels.SelectableChannel;

/**
 * What the two pipe transports share (asyncio's {@code _UnixReadPipeTransport} and
 * {@code _UnixWritePipeTransport} each repeat it): the pipe channel, the closing state, and the
 * way down: connectionLost exactly once, soon, then the channel closed. One collected without
 * being closed has its pipe closed by its tracker, as a socket transport
 * ({@link CollectedTransport}; "unclosed transport" is warned in debug mode).
 */
abstract class PipeTransport<C extends SelectableChannel> implements Transport {
    final EventLoop loop;
    final C channel;
    BaseProtocol protocol;
    boolean closing;
    /** connectionLost is scheduled (or ran): it happens once. */
    boolean lostScheduled;
    private final ResourceWarnings.Tracker unclosed;

    PipeTransport(EventLoop loop, C channel, BaseProtocol protocol) throws IOException {
        this.loop = loop;
        this.channel = channel;
        this.protocol = protocol;
        channel.configureBlocking(false);
        boolean debug = loop.getDebug();
        this.unclosed = ResourceWarnings.track(this, debug ? "transport <" + getClass().getSimpleName() + ">" : null,
                debug ? CreationStack.captureOutsideLibrary() : null, new CollectedTransport(loop, channel, null));
    }

    /** Drops what waits to be written (the write pipe's buffer); the loop callbacks are gone already. */
    abstract void discardPending();

    @Override
    public void abort() {
        forceClose(null);
    }

    @Override
    public boolean isClosing() {
        return closing;
    }

    final void fatalError(Throwable exc, String message) {
        FatalErrors.report(loop, exc, message, this, protocol);
        forceClose(exc);
    }

    /** Stops at once: nothing more is read or written; connectionLost({@code exc}) soon. */
    final void forceClose(Throwable exc) {
        if (lostScheduled) {
            return;
        }
        closing = true;
        loop.removeReader(channel);
        loop.removeWriter(channel);
        discardPending();
        scheduleConnectionLost(exc);
    }

    final void scheduleConnectionLost(Throwable exc) {
        lostScheduled = true;
        loop.callSoon(() -> callConnectionLost(exc));
    }

    final void callConnectionLost(Throwable exc) {
        lostScheduled = true;
        try {
            protocol.connectionLost(exc);
        } finally {
            loop.removeReader(channel);
            loop.removeWriter(channel);
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing left to do with it
            }
            unclosed.closed();
        }
    }

    @Override
    public Object getExtraInfo(String name) {
        return "pipe".equals(name) ? channel : null;
    }

    @Override
    public BaseProtocol getProtocol() {
        return protocol;
    }

    @Override
    public void setProtocol(BaseProtocol protocol) {
        this.protocol = protocol;
    }
}
