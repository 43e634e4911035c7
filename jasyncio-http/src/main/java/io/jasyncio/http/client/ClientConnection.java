package io.jasyncio.http.client;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpLimits;
import io.jasyncio.http.HttpMessageListener;
import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpParser;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.codec.ClientConnectionState;
import io.jasyncio.http.codec.OutgoingBody;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.Transport;

import java.io.IOException;
import java.nio.ByteBuffer;

import static io.jasyncio.Asyncio.await;

/**
 * One HTTP/1.1 connection of the client, on the transport/protocol API: it writes a request,
 * parses the response as it arrives and hands the body to its {@link ResponseBody}, one exchange
 * at a time. Reading pauses while the body's reader is behind; request-body writes wait while the
 * transport's write buffer is above its high-water mark. An exchange that fails (an error, a
 * timeout, a cancelled caller, a body closed early) aborts the connection: only one that ended
 * cleanly with a response that allows it goes back to the pool. A request that says
 * {@code Expect: 100-continue} waits for the 100 before its body (RFC 9110 §10.1.1); a final
 * response that comes before the body is all sent ends the sending (the body the server did not
 * wait for is not sent; RFC 9112 §9.5), is delivered, and the connection is not reused.
 *
 * <p>An exchange's deadlines (the response head's, the read-idle one, the whole request's) are
 * fields, checked by the pool's sweep ({@link #checkDeadlines}): no timer per request.
 */
final class ClientConnection implements Protocol, ResponseBody.Source, HttpMessageListener {
    private final EventLoop loop;
    private final Origin origin;
    private final HttpClientOptions options;
    private final HttpParser parser;
    /** What may happen next on this connection: framing, 100-continue, keep-alive and reuse. */
    private final ClientConnectionState state = new ClientConnectionState();
    private final RequestSender sender;
    private Transport transport;
    private ConnectionPool pool;
    private boolean lost;
    /** Loop time this connection went idle in the pool (NaN while not idle). */
    private double idleSince = Double.NaN;
    /** The socket is paused because the body's reader is behind: silence is not the server's. */
    private boolean pausedForReader;

    /** The exchange in flight, or null while the connection is idle. */
    private ClientExchange current;
    /** A byte of the last exchange's response arrived. */
    private boolean heardBack;

    ClientConnection(EventLoop loop, Origin origin, HttpClientOptions options) {
        this.loop = loop;
        this.origin = origin;
        this.options = options;
        this.parser = HttpParser.forResponses(HttpLimits.defaults().withMaxHeaderBytes(options.maxResponseHeadBytes())
                .withMaxHeaderCount(options.maxResponseHeaderFields()).withMaxBodySize(-1), this);
        this.sender = new RequestSender(loop, origin, options, state);
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
        if (pausedForReader && !Double.isNaN(ex.heardAt)) {
            ex.heardAt = now; // the reader's pace, not the server's silence
        }
        HttpTimeoutException expired = ex.expired(now, options.responseHeadersTimeout(), options.readIdleTimeout(), origin);
        if (expired != null) {
            fail(ex, expired);
            return Double.POSITIVE_INFINITY;
        }
        return ex.nextDeadline(options.readIdleTimeout());
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
        ClientExchange ex = new ClientExchange(loop.createFuture(), request.toString());
        current = ex;
        heardBack = false;
        parser.respondingTo(request.method());
        if (!Double.isNaN(deadline)) {
            ex.requestDeadline = deadline;
            ex.requestTimeout = timeout;
            if (pool != null) {
                pool.watchTimeout(timeout); // a per-request timeout may be shorter than the options'
            }
            watch(deadline);
        }
        try {
            try {
                sender.send(ex, request, framing);
            } catch (IOException | RuntimeException e) {
                if (!state.answeredEarly()) {
                    throw e;
                }
                // the server answered, then stopped taking the body (or closed): the answer stands,
                // and its body, if the connection is lost before its end, fails as it reads
            }
            if (current == ex) {
                state.requestSent();
                if (state.cycleDone()) {
                    finish(ex);
                } else {
                    startWaitingForResponse(ex);
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

    /** The request is written: the response head's and the read-idle deadlines run from here. */
    private void startWaitingForResponse(ClientExchange ex) {
        double now = loop.time();
        if (!ex.head.isDone() && !Double.isNaN(options.responseHeadersTimeout())) {
            ex.headDeadline = now + options.responseHeadersTimeout();
            watch(ex.headDeadline);
        }
        if (!Double.isNaN(options.readIdleTimeout())) {
            ex.heardAt = now;
            watch(now + options.readIdleTimeout());
        }
    }

    private void watch(double due) {
        if (pool != null) {
            pool.watch(due);
        }
    }

    /** Whether any byte of a response to the last exchange arrived (even if that exchange failed since). */
    boolean heardBack() {
        return heardBack;
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
    private void fail(ClientExchange ex, Throwable error) {
        ex.clearDeadlines();
        ex.wakeContinueWaiter();
        if (!ex.head.isDone()) {
            ex.head.setException(error);
        } else if (ex.body != null) {
            ex.body.fail(error);
        }
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
        heardBack = true;
        if (!Double.isNaN(ex.heardAt)) {
            ex.heardAt = loop.time();
        }
        try {
            parser.feed(data);
        } catch (HttpParseException e) {
            fail(ex, badResponse(e));
        }
    }

    @Override
    public boolean eofReceived() {
        ClientExchange ex = current;
        if (ex != null) {
            try {
                parser.feedEof(); // ends a body read until close; anything else ends in connectionLost
            } catch (HttpParseException e) {
                fail(ex, badResponse(e));
            }
        }
        return false;
    }

    /** The parser refused the response; a limit's refusal (431) names the client's limits and their options. */
    private IOException badResponse(HttpParseException e) {
        String limits = e.status() == 431 ? " (this client's limits: maxResponseHeadBytes " + options.maxResponseHeadBytes()
                + " bytes, maxResponseHeaderFields " + options.maxResponseHeaderFields() + " fields; raise them in "
                + "HttpClientOptions)" : "";
        return new IOException("bad response from " + origin + ": " + e.getMessage() + limits, e);
    }

    @Override
    public void connectionLost(Throwable exc) {
        lost = true;
        state.closed();
        leaveIdle();
        ClientExchange ex = current;
        if (ex != null) {
            IOException error = new IOException(exc == null
                    ? "the server closed the connection before the response ended"
                    : "the connection to " + origin + " failed: " + exc, exc);
            fail(ex, error);
        }
        sender.connectionLost();
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

    // ---- the parser's events ------------------------------------------------------------------

    @Override
    public boolean onResponseHead(HttpResponse head) throws HttpParseException {
        ClientExchange ex = current;
        if (ex == null) {
            throw new HttpParseException(400, "a response without a request");
        }
        switch (state.responseHead(head, parser.readsUntilClose())) {
            case SWITCHED -> throw new HttpParseException(400, head.status() == 101
                    ? "101 Switching Protocols: this client does not upgrade"
                    : head.status() + " to CONNECT: this client opens no tunnels");
            case CONTINUE -> ex.wakeContinueWaiter();
            case INTERIM -> {
                // 103 Early Hints and the like: the real response follows
            }
            case FINAL -> {
                if (state.answeredEarly()) {
                    ex.wakeContinueWaiter(); // RFC 9112 §9.5: stop sending; the connection is not reused
                    sender.wakeWriter();
                }
                ex.headDeadline = Double.NaN;
                ex.body = new ResponseBody(loop, this, options.bodyBufferBytes());
                ex.head.setResult(new HttpClientResponse(head, ex.body));
            }
        }
        return true;
    }

    @Override
    public boolean onBody(ByteBuffer chunk) {
        ClientExchange ex = current;
        if (ex != null && ex.body != null) {
            ex.body.append(chunk);
        } else {
            chunk.position(chunk.limit());
        }
        return true;
    }

    @Override
    public boolean onMessageComplete(HttpHeaders trailers) {
        ClientExchange ex = current;
        if (ex == null || !state.responseEnded()) {
            return true; // an interim response ended: the real one follows
        }
        ex.heardAt = Double.NaN; // the response is all here: nothing more to wait for from the server
        ex.body.end(trailers);
        if (state.cycleDone()) {
            finish(ex);
        }
        return true;
    }

    // ---- the body's flow control --------------------------------------------------------------

    @Override
    public void pauseReading() {
        if (!lost && !transport.isClosing()) {
            pausedForReader = true;
            transport.pauseReading();
        }
    }

    @Override
    public void resumeReading() {
        if (!lost && !transport.isClosing()) {
            pausedForReader = false;
            ClientExchange ex = current;
            if (ex != null && !Double.isNaN(ex.heardAt)) {
                ex.heardAt = loop.time(); // the server's silence counts from here
            }
            transport.resumeReading();
        }
    }

    @Override
    public boolean isReading() {
        return !lost && transport.isReading();
    }

    @Override
    public void abandon() {
        ClientExchange ex = current;
        if (ex != null) {
            fail(ex, new IOException("the response body was closed before its end"));
        }
    }
}
