package io.jasyncio.http.server;

import io.jasyncio.http.codec.LingeringClose;
import io.jasyncio.http.codec.PipelinedInput;
import io.jasyncio.http.codec.ReceiveDeadlines;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.Transport;

import java.nio.ByteBuffer;

/**
 * How one server connection stops being HTTP, and where it is on the way: closing after what is
 * written (lingering first when the client may still send, {@link LingeringClose}), aborted,
 * dropped for a client that does not read, lost, or handed over to another protocol
 * ({@link HandOver}). It does the transport's side of each; the decisions are the codec's.
 */
final class ConnectionEnd {
    private static final System.Logger LOG = System.getLogger("io.jasyncio.http.server");

    private final EventLoop loop;
    private final long lingerBytes;
    private final ResponseWriter writer;
    private final ReadFlow flow;
    private final ReceiveDeadlines deadlines;
    private final PipelinedInput input;
    private final LingeringClose linger = new LingeringClose();
    private Transport transport;
    private boolean peerClosed;
    private boolean closeRequested;
    private boolean closed;
    /** Set once a handler took the connection over (Upgrade, CONNECT): no more HTTP here. */
    private HandOver handOver;
    /** Why this side dropped the connection (a send timeout, the client gone), for what the handler sees; or null. */
    private String dropReason;

    ConnectionEnd(EventLoop loop, long lingerBytes, ResponseWriter writer, ReadFlow flow, ReceiveDeadlines deadlines,
                  PipelinedInput input) {
        this.loop = loop;
        this.lingerBytes = lingerBytes;
        this.writer = writer;
        this.flow = flow;
        this.deadlines = deadlines;
        this.input = input;
    }

    void attach(Transport transport) {
        this.transport = transport;
    }

    /** Whether the connection is closing (or aborted): no more requests are answered. */
    boolean isClosing() {
        return closeRequested;
    }

    boolean isClosed() {
        return closed;
    }

    boolean peerClosed() {
        return peerClosed;
    }

    /** Whether the connection is lost or closing: a handler's failure then is no fault of its own. */
    boolean isGone() {
        return closed || closeRequested;
    }

    /** Whether the client is still there: the connection open, and the client's side not closed. */
    boolean clientConnected() {
        return !closed && !peerClosed;
    }

    boolean isLingering() {
        return linger.isActive();
    }

    /** Whether a handler took the connection over. */
    boolean isHandedOver() {
        return handOver != null;
    }

    String dropReason() {
        return dropReason;
    }

    /** The server shuts down: the new connection closes at once. */
    void refuseConnection() {
        closeRequested = true;
        transport.close();
    }

    /** The client closed its side. Returns the hand-over pending, if any (its protocol hears of it). */
    HandOver peerClosedNow() {
        peerClosed = true;
        if (handOver != null) {
            handOver.peerClosed();
        }
        return handOver;
    }

    /** The client went away while its request was answered: the transport closes, and its loss cancels the handler. */
    void clientGone() {
        dropReason = "the client closed the connection while its request was being answered";
        closeRequested = true;
    }

    /** At the client's EOF while closing: no more lingering; the transport closes once our last bytes are out. */
    void eofWhileClosing() {
        linger.end();
    }

    /** The connection is lost. */
    void lost(Throwable exc) {
        closed = true;
        if (handOver != null) {
            handOver.lost(exc);
        }
        flow.lost(dropReason);
    }

    /** Closing: bytes that arrive are dropped while lingering, up to the bound (then the connection closes). */
    void dropArrived(ByteBuffer data) {
        if (linger.isActive()) {
            int n = data.remaining();
            data.position(data.limit());
            if (linger.dropped(n)) {
                endLinger();
            }
        }
    }

    /**
     * Closes after what is buffered is sent; with {@code clientMaySend}, RFC 9112 §9.6's staged
     * close: our side is shut first (the client reads the end of the response; not over TLS,
     * which cannot), what the client still sends is read and dropped, and the connection closes
     * at the client's EOF, the linger deadline or the bound of bytes.
     */
    void close(boolean clientMaySend) {
        if (closeRequested) {
            return;
        }
        closeRequested = true;
        deadlines.stop();
        writer.flush();
        if (!LingeringClose.lingers(clientMaySend, peerClosed)) {
            transport.close();
            return;
        }
        linger.begin(lingerBytes);
        input.clear(); // requests after a closing one are not answered
        deadlines.linger(loop.time());
        if (transport.canWriteEof()) {
            transport.writeEof();
        }
        flow.resumeReading();
    }

    void endLinger() {
        linger.end();
        deadlines.stop();
        transport.close();
    }

    /** Drops the connection at once (a response that cannot be completed, the shutdown deadline). */
    void abort() {
        closeRequested = true;
        linger.end();
        deadlines.stop();
        writer.flush();
        transport.abort();
    }

    /** Drops a client that does not take its responses ({@code reason} says how), and logs it. */
    void drop(String reason) {
        dropReason = reason;
        LOG.log(System.Logger.Level.INFO, () -> "HTTP connection from " + transport.getExtraInfo("peername")
                + " dropped: " + reason);
        abort();
    }

    /** A handler took the connection over: {@code next} gets it soon, on the loop. */
    void handOver(HandOver next) {
        handOver = next;
        if (peerClosed) {
            next.peerClosed();
        }
        deadlines.stop();
        writer.flush(); // the 101 or 2xx goes out before anything the successor writes
        loop.callSoon(next);
    }
}
