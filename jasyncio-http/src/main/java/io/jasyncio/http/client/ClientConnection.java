package io.jasyncio.http.client;

import io.jasyncio.http.codec.ClientConnectionState;
import io.jasyncio.http.codec.OutgoingBody;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.Transport;

import java.io.IOException;
import java.nio.ByteBuffer;

import static io.jasyncio.Asyncio.await;

/**
 * One HTTP/1.1 connection of the client, on the transport/protocol API: the adapter between the
 * transport, the caller's task and the I/O-free {@link ClientConnectionState}, one exchange at a
 * time. {@link RequestSender} writes the request, {@link ResponseReceiver} parses the response
 * and hands its body to a {@link ResponseBody}; this class starts and ends exchanges and answers
 * the pool. An exchange that fails (an error, a timeout, a cancelled caller, a body closed early)
 * aborts the connection: only one that ended cleanly with a response that allows it goes back to
 * the pool. A final response that comes before the request is all sent (RFC 9112 §9.5) is
 * delivered, and the connection is aborted after it.
 *
 * <p>An exchange's deadlines (the response head's, the read-idle one, the whole request's) are
 * fields, checked by the pool's sweep ({@link #checkDeadlines}): no timer per request.
 */
final class ClientConnection implements Protocol, ResponseReceiver.Owner {
    private final EventLoop loop;
    private final Origin origin;
    private final HttpClientOptions options;
    /** What may happen next on this connection: framing, 100-continue, keep-alive and reuse. */
    private final ClientConnectionState state = new ClientConnectionState();
    private final RequestSender sender;
    private final ResponseReceiver receiver;
    private Transport transport;
    private ConnectionPool pool;
    private boolean lost;
    /** Loop time this connection went idle in the pool (NaN while not idle). */
    private double idleSince = Double.NaN;
    /** The exchange in flight, or null while the connection is idle. */
    private ClientExchange current;

    ClientConnection(EventLoop loop, Origin origin, HttpClientOptions options) {
        this.loop = loop;
        this.origin = origin;
        this.options = options;
        this.sender = new RequestSender(loop, origin, options, state);
        this.receiver = new ResponseReceiver(loop, origin, options, state, sender, this);
    }

    Origin origin() {
        return origin;
    }

    // ---- the pool's side ----------------------------------------------------------------------

    /** Joins {@code pool}, which hears when the transport is gone; false if it is gone already. */
    boolean attach(ConnectionPool pool) {
        if (lost) {
            return false;
        }
        this.pool = pool;
        return true;
    }

    /** Whether another exchange may start: open, idle and not closing. */
    boolean canCarryExchange() {
        return !lost && current == null && state.idle() && transport != null && !transport.isClosing();
    }

    /** Whether this connection carried an exchange before (a stale keep-alive may fail the next one). */
    boolean reused() {
        return state.cycle() > 0;
    }

    void enterIdle(double now) {
        idleSince = now;
    }

    void leaveIdle() {
        idleSince = Double.NaN;
    }

    /** Loop time this connection went idle, NaN while it is not idle. */
    double idleSince() {
        return idleSince;
    }

    /**
     * The pool's sweep, at loop time {@code now}: fails the exchange in flight if one of its
     * deadlines passed (the connection is then aborted), else returns the earliest deadline still
     * ahead ({@code +Infinity}: none).
     */
    double checkDeadlines(double now) {
        ClientExchange ex = current;
        if (ex == null) {
            return Double.POSITIVE_INFINITY;
        }
        HttpTimeoutException expired = ex.expired(now, receiver.pausedForReader(), sender.writingPaused(), options, origin);
        if (expired == null) {
            return ex.nextDeadline(options.readIdleTimeout());
        }
        fail(ex, expired);
        return Double.POSITIVE_INFINITY;
    }

    void close() {
        if (transport != null) {
            transport.close();
        }
    }

    // ---- one exchange -------------------------------------------------------------------------

    /**
     * Coroutine: sends {@code request} and returns its response once the head arrived (the body
     * follows through the response's {@link ResponseBody}). {@code deadline} is the loop time by
     * which the whole exchange must end, {@code timeout} seconds after it began (NaN: none). Any
     * failure aborts the connection.
     */
    HttpClientResponse exchange(HttpClientRequest request, double timeout, double deadline) throws IOException {
        if (!canCarryExchange()) {
            throw new IOException("the connection to " + origin + " cannot carry a request");
        }
        RequestBody body = request.body();
        long framing = state.startRequest(request.method(), request.headers(), !(body instanceof RequestBody.Empty),
                body.length());
        ClientExchange ex = new ClientExchange(loop.createFuture(), request.toString(), timeout, deadline);
        current = ex;
        receiver.expectResponseTo(request.method());
        if (!Double.isNaN(deadline) && pool != null) {
            pool.watchTimeout(timeout); // a per-request timeout may be shorter than the options'
        }
        watch(deadline);
        ex.requestStarted(loop.time(), options);
        watch(ex.heardAt + options.readIdleTimeout());
        try {
            sender.send(ex, request, framing);
            if (current == ex) {
                state.requestSent();
                if (state.cycleDone()) {
                    finish(ex);
                } else {
                    ex.requestWritten(loop.time(), options);
                    watch(ex.headDeadline);
                    watch(ex.heardAt + options.readIdleTimeout());
                }
            }
            return await(ex.head);
        } catch (Throwable t) {
            fail(ex, t); // a failed write, a timeout, a cancelled caller: this connection is done
            Throwable first = ex.head.isCancelled() ? null : ex.head.exception(); // retrieved here, either way
            if (first instanceof HttpTimeoutException timedOut && first != t) {
                throw timedOut; // a timeout that fired while the request was written says more than the closed socket
            }
            throw t;
        }
    }

    private void watch(double due) {
        if (pool != null) {
            pool.watch(due);
        }
    }

    /** Whether any byte of a response to the last exchange arrived (even if that exchange failed since). */
    boolean heardBack() {
        return receiver.heardBack();
    }

    /** Where a streaming body writes: its bytes framed by the request's {@link OutgoingBody}. */
    static final class RequestBodyWriter implements BodyWriter {
        private final RequestSender sender;
        private final OutgoingBody framed;

        RequestBodyWriter(RequestSender sender, OutgoingBody framed) {
            this.sender = sender;
            this.framed = framed;
        }

        @Override
        public void write(ByteBuffer data) throws IOException {
            sender.writePiece(framed, data);
        }

        /** Bytes written and not yet handed to the socket. */
        long unsentBytes() {
            return sender.unsentBytes();
        }

        /** Whether the transport asked to pause writing (its buffer is above the high-water mark). */
        boolean writingPaused() {
            return sender.writingPaused();
        }
    }

    @Override
    public ClientExchange current() {
        return current;
    }

    @Override
    public void responseEnded(ClientExchange ex) {
        if (state.cycleDone()) {
            finish(ex);
        }
    }

    /** The exchange ended on both sides: the connection goes back to the pool (or is closed). */
    private void finish(ClientExchange ex) {
        if (current != ex) {
            return;
        }
        current = null;
        ex.clearDeadlines();
        if (state.answeredEarly() && transport != null) {
            transport.abort(); // what is left of the body may never be taken: nothing to wait for
        }
        boolean reusable = state.startNextCycle() && !lost;
        if (pool != null) {
            pool.release(this, reusable);
        } else if (!reusable) {
            close();
        }
    }

    /** Ends {@code ex} with {@code error} (its head or its body sees it) and aborts the connection. */
    @Override
    public void fail(ClientExchange ex, Throwable error) {
        ex.fail(error);
        if (current == ex) {
            current = null;
            state.closed();
            if (transport != null) {
                transport.abort();
            }
        }
    }

    // ---- the transport's events ---------------------------------------------------------------

    @Override
    public void connectionMade(Transport transport) {
        this.transport = transport;
        sender.connectionMade(transport);
        receiver.connectionMade(transport);
    }

    @Override
    public void dataReceived(ByteBuffer data) {
        ClientExchange ex = current;
        if (ex == null) {
            // Bytes nobody asked for (a server's 408 on an idle connection, say): the connection is spent.
            data.position(data.limit());
            transport.abort();
            return;
        }
        receiver.received(ex, data);
    }

    @Override
    public boolean eofReceived() {
        ClientExchange ex = current;
        if (ex != null) {
            receiver.eofReceived(ex);
        }
        return false;
    }

    @Override
    public void connectionLost(Throwable exc) {
        lost = true;
        sender.connectionLost();
        receiver.connectionLost();
        state.closed();
        leaveIdle();
        ClientExchange ex = current;
        if (ex != null) {
            IOException error = new IOException(exc == null
                    ? "the server closed the connection before the response ended"
                    : "the connection to " + origin + " failed: " + exc, exc);
            fail(ex, error);
        }
        if (pool != null) {
            pool.gone(this);
        }
    }

    @Override
    public void pauseWriting() {
        sender.pauseWriting();
    }

    @Override
    public void resumeWriting() {
        sender.resumeWriting();
    }
}
