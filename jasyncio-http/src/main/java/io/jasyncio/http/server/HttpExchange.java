package io.jasyncio.http.server;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.codec.OutgoingBody;
import io.jasyncio.http.codec.ResponseFraming;
import io.jasyncio.http.codec.ServerConnectionState;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.StreamConnection;
import io.jasyncio.net.StreamReader;
import io.jasyncio.net.StreamReaderProtocol;
import io.jasyncio.net.StreamWriter;
import io.jasyncio.net.Transport;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One request and its response, as a {@link StreamingHandler} sees them: read the body as it
 * arrives ({@link #read()}), answer whole ({@link #respond}) or in parts ({@link #startResponse},
 * {@link #write}, {@link #end}). Writes wait while the client does not read (the transport
 * paused writing); reads wait for the client, which waits for them in turn: the socket is not
 * read while a body piece waits here unread beyond the connection's mark. Use it from the
 * handler's task only.
 */
public final class HttpExchange {
    /** The connection's request cycle this exchange is one of. */
    private final RequestCycle connection;
    private final HttpRequest request;
    /** The connection's state machine: it decides framing, close and what may be sent next. */
    private final ServerConnectionState state;
    /** The state machine's cycle of this exchange: once it moved on, this response is over. */
    private final int cycle;
    /** The request's body, fed by the connection: streamed, gathered whole, or none. */
    private final IncomingBody requestBody;
    /** The connection's response bytes, its read and write flow, and its end (all one per connection). */
    private final ResponseWriter out;
    private final ReadFlow flow;
    private final ConnectionEnd end;

    /** The body of a response begun by {@link #startResponse}: its framing and count. */
    private OutgoingBody body;

    HttpExchange(RequestCycle connection, ServerConnectionState state, HttpRequest request, IncomingBody body,
                 ResponseWriter out, ReadFlow flow, ConnectionEnd end) {
        this.connection = connection;
        this.out = out;
        this.flow = flow;
        this.end = end;
        this.state = state;
        this.cycle = state.cycle();
        this.request = request;
        this.requestBody = body;
    }

    /** The request head (its body is read with {@link #read()}). */
    public HttpRequest request() {
        return request;
    }

    // ---- the request body ----------------------------------------------------------------------

    /**
     * Coroutine: the next piece of the body (a buffer of its own), or null at its end. The first
     * read (or {@link #startResponse}) sends the {@code 100 Continue} a client waits for
     * ({@code Expect: 100-continue}); {@link #respond} without reading sends none, and the
     * connection closes after the response, the body unsent.
     * Throws an {@link IOException} if the body cannot complete (malformed, too large, timed out,
     * the connection lost); for a limit or malformed framing, the server has answered already.
     */
    public ByteBuffer read() throws IOException {
        sendContinueIfExpected();
        byte[] piece = requestBody.next();
        connection.readMore(); // room again: read the socket if it was paused for us
        return piece == null ? null : ByteBuffer.wrap(piece);
    }

    /** Coroutine: the rest of the body, whole (bounded by the body limit). */
    public byte[] readAll() throws IOException {
        return RequestBody.readAll(this, -1);
    }

    /**
     * Coroutine: the rest of the body, whole, or null as soon as it passes {@code maxBytes} (then
     * the rest stays unread); {@code -1}: bounded by the body limit alone, as {@link #readAll()}.
     */
    public byte[] readAll(long maxBytes) throws IOException {
        return RequestBody.readAll(this, maxBytes);
    }

    private void sendContinueIfExpected() {
        if (current()) {
            connection.continueIfDue();
        }
    }

    // ---- the response --------------------------------------------------------------------------

    /** Answers with a whole response (its head encoded once if the response is reused). */
    public void respond(HttpResponse whole) {
        checkNotStarted();
        byte[] bytes = whole.body();
        ResponseFraming framing = state.startResponse(whole.status(), whole.headers(), bytes.length,
                connection.closesAfterResponse());
        out.put(whole.encodedHead());
        out.endHead(framing);
        if (framing.bodyAllowed() && bytes.length > 0) {
            out.put(bytes); // its Content-Length is its length: nothing to count (no OutgoingBody for a whole response)
        }
        state.endResponse(false);
        finish();
    }

    /** Starts a response whose length is not known: chunked (HTTP/1.1), or ended by closing (HTTP/1.0). */
    public void startResponse(int status, HttpHeaders headers) {
        startResponse(status, headers, -1);
    }

    /**
     * Starts a response of {@code contentLength} bytes ({@code -1}: unknown, as
     * {@link #startResponse(int, HttpHeaders)}). Framing fields in {@code headers} are replaced.
     */
    public void startResponse(int status, HttpHeaders headers, long contentLength) {
        checkNotStarted();
        // a handler that streams its response may read the body after it: a client waiting for
        // 100 (Continue) gets it first, as no interim response may follow a final one
        sendContinueIfExpected();
        ResponseFraming framing = state.startResponse(status, headers, contentLength, connection.closesAfterResponse());
        body = OutgoingBody.of(framing);
        out.streamHead(status, headers, framing);
        out.flushUnlessCorked();
    }

    /** Coroutine: writes a part of the body, then waits while the client is not reading. */
    public void write(ByteBuffer data) throws IOException {
        if (!current()) {
            throw new IllegalStateException("the response has ended");
        }
        state.checkSendingBody(data.remaining());
        if (!body.write(data, out)) {
            return; // a HEAD response has no body; an empty chunk would end one
        }
        out.flushUnlessCorked();
        flow.awaitDrain();
    }

    /** Coroutine: as {@link #write(ByteBuffer)}. */
    public void write(byte[] data) throws IOException {
        write(ByteBuffer.wrap(data));
    }

    /** Ends the response begun by {@link #startResponse}. */
    public void end() {
        end(HttpHeaders.empty());
    }

    /** Ends the response; {@code trailers} follow a chunked body (and are dropped otherwise). */
    public void end(HttpHeaders trailers) {
        if (!current()) {
            return;
        }
        if (!state.sendingBody()) {
            state.endResponse(false); // throws if no response began; else it had ended
            return;
        }
        boolean shortOfLength = body.end(trailers, out) == OutgoingBody.Ending.SHORT;
        if (state.endResponse(shortOfLength) == ServerConnectionState.Ending.ABORT) {
            end.abort(); // shorter than its Content-Length: the client must see it fail
        } else {
            finish();
        }
    }

    // ---- taking the connection over (Upgrade, CONNECT) -----------------------------------------

    /**
     * Answers with {@code status} and hands the connection's bytes, from the end of this request
     * on, to {@code protocol}: 101 (Switching Protocols) to a request with {@code Upgrade}
     * (RFC 9110 §7.8; {@code headers} say to what, {@code Connection: Upgrade} is added), or a 2xx
     * to CONNECT (a tunnel, RFC 9110 §9.3.6). The protocol gets {@code connectionMade}, then the
     * bytes the client sent after the request (soon, on the loop), then the transport's events;
     * the server no longer times or counts the connection, but keeps the handler's task until it
     * ends, and {@link HttpServer#shutdown} closes the connection after its grace period. The
     * request must be complete (its body read). Returns the transport.
     */
    public Transport takeOver(int status, HttpHeaders headers, Protocol protocol) {
        checkNotStarted();
        boolean tunnel = state.takeOver(status);
        out.handOverHead(status, headers, tunnel);
        return connection.handOver(protocol);
    }

    /** As {@link #takeOver(int, HttpHeaders, Protocol)}, the bytes as a stream pair (asyncio's reader and writer). */
    public StreamConnection takeOver(int status, HttpHeaders headers) {
        EventLoop loop = connection.loop();
        StreamReader reader = new StreamReader(loop);
        StreamReaderProtocol protocol = new StreamReaderProtocol(loop, reader, null);
        Transport transport = takeOver(status, headers, protocol);
        return new StreamConnection(reader, new StreamWriter(transport, protocol, reader, loop));
    }

    /**
     * Whether the client is still there: its connection is open and it has not closed its side.
     * A handler whose client has gone is cancelled unless the server's
     * {@link HttpServerOptions#handlerCancellation()} is off; then it can ask here.
     */
    public boolean clientConnected() {
        return end.clientConnected();
    }

    /** Whether a response began (then a failure can only abort the connection). */
    public boolean responseStarted() {
        return !current() || state.responseStarted();
    }

    /** Whether the connection's state machine is still in this exchange's cycle. */
    private boolean current() {
        return state.cycle() == cycle;
    }

    /** Whether the response began and has not ended: its body is being written. */
    private boolean sendingBody() {
        return current() && state.sendingBody();
    }

    private void checkNotStarted() {
        if (responseStarted()) {
            throw new IllegalStateException("a response was already begun");
        }
    }

    private void finish() {
        connection.exchangeFinished(this);
    }

    // ---- for the handler's task ------------------------------------------------------------------

    /** Whether {@code t} is the failure of the request itself (the client broke it off), not the handler's. */
    boolean failedWith(Throwable t) {
        return requestBody.failedWith(t);
    }

    /** The request with its whole body, for a whole-request handler. */
    HttpRequest wholeRequest() {
        return requestBody instanceof WholeBody whole && whole.gatheredBytes() > 0
                ? request.withBody(whole.toArray()) : request;
    }

    /** The handler failed (and it was reported): 500 if no response began, else the response begun is aborted. */
    void handlerFailed() {
        if (!responseStarted()) {
            respond(HttpResponse.text(500, "Internal Server Error"));
        } else if (sendingBody()) {
            state.refuse();
            end.abort();
        }
    }
}
