package io.jasyncio.http.server;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpParseException;
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
import io.jasyncio.task.Task;

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
    /** The body queued for a streaming handler; null for a whole-request handler. */
    private final RequestBody streamedBody;
    /** The body gathered for a whole-request handler; null for a streaming one, or without a body. */
    private final WholeBody wholeBody;
    /** Why the request could not complete, once it could not. */
    private IOException requestFailure;

    /** The body of a response begun by {@link #startResponse}: its framing and count. */
    private OutgoingBody body;
    private Task<Void> task;
    /** Whether the handler took the connection over: then the server holds its task until it ends. */
    private boolean takenOver;

    HttpExchange(RequestCycle connection, ServerConnectionState state, HttpRequest request, boolean streaming,
                 boolean hasBody, long contentLength, BodyBudget budget) {
        this.connection = connection;
        this.state = state;
        this.cycle = state.cycle();
        this.request = request;
        this.streamedBody = streaming ? new RequestBody(connection.loop()) : null;
        if (streaming && !hasBody) {
            streamedBody.end();
        }
        this.wholeBody = streaming || !hasBody ? null : new WholeBody(budget, contentLength);
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
        if (streamedBody == null) {
            throw new IllegalStateException("a whole-request handler has its body in the request");
        }
        sendContinueIfExpected();
        byte[] piece = streamedBody.next();
        connection.readMore(); // room again: read the socket if it was paused for us
        return piece == null ? null : ByteBuffer.wrap(piece);
    }

    /** Coroutine: the rest of the body, whole (bounded by the body limit). */
    public byte[] readAll() throws IOException {
        return RequestBody.readAll(this);
    }

    private void sendContinueIfExpected() {
        if (current() && state.continueDue()) {
            state.continueSent();
            connection.sendContinue();
        }
    }

    // ---- the response --------------------------------------------------------------------------

    /** Answers with a whole response (its head encoded once if the response is reused). */
    public void respond(HttpResponse whole) {
        checkNotStarted();
        byte[] bytes = whole.body();
        ResponseFraming framing = state.startResponse(whole.status(), whole.headers(), bytes.length,
                connection.closesAfterResponse());
        ResponseWriter out = connection.writer();
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
        connection.writer().streamHead(status, headers, framing);
        connection.writer().flushUnlessCorked();
    }

    /** Coroutine: writes a part of the body, then waits while the client is not reading. */
    public void write(ByteBuffer data) throws IOException {
        if (!current()) {
            throw new IllegalStateException("the response has ended");
        }
        state.checkSendingBody(data.remaining());
        ResponseWriter out = connection.writer();
        if (!body.write(data, out)) {
            return; // a HEAD response has no body; an empty chunk would end one
        }
        out.flushUnlessCorked();
        connection.awaitDrain();
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
        boolean shortOfLength = body.end(trailers, connection.writer()) == OutgoingBody.Ending.SHORT;
        if (state.endResponse(shortOfLength) == ServerConnectionState.Ending.ABORT) {
            connection.end().abort(); // shorter than its Content-Length: the client must see it fail
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
        connection.writer().handOverHead(status, headers, tunnel);
        takenOver = true;
        return connection.handOver(protocol, task); // a task not started yet is held once started (HandlerTask)
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
        return connection.end().clientConnected();
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
        releaseBody();
        connection.exchangeFinished(this);
    }

    // ---- for the connection ----------------------------------------------------------------------

    boolean isStreaming() {
        return streamedBody != null;
    }

    /** Body bytes gathered so far for a whole-request handler. */
    int wholeBodyLength() {
        return wholeBody == null ? 0 : wholeBody.length();
    }

    long queuedBodyBytes() {
        return streamedBody == null ? 0 : streamedBody.queuedBytes();
    }

    /** A piece of the body; refused with 503 when the server's budget for whole bodies cannot hold it. */
    void bodyArrived(ByteBuffer piece) throws HttpParseException {
        if (responseStarted() && !sendingBody()) {
            return; // answered already: the rest of the body is dropped
        }
        if (streamedBody != null) {
            streamedBody.add(piece);
            return;
        }
        if (!wholeBody.append(piece)) {
            throw new HttpParseException(503, "the server holds as many request bodies as it may ("
                    + wholeBody.budgetCapacity() + " bytes in all); retry later");
        }
    }

    void requestCompleted() {
        if (streamedBody != null) {
            streamedBody.end();
        }
    }

    /** The request cannot complete: a waiting read throws {@code cause}; this exchange writes no more. */
    void requestFailed(IOException cause) {
        requestFailure = cause;
        releaseBody();
        if (streamedBody != null) {
            streamedBody.fail(cause);
        }
        if (!responseStarted()) {
            state.refuse(); // the connection answers the refusal itself
        }
    }

    /**
     * The connection is gone; {@code reason} says why if this side dropped it (or is null). The
     * handler is cancelled if {@code cancel}.
     */
    void connectionLost(String reason, boolean cancel) {
        String why = reason != null ? reason : "the connection was lost";
        requestFailed(new IOException(why));
        if (current()) {
            state.refuse(); // a response begun cannot be completed
        }
        if (cancel && task != null && !task.isDone()) {
            task.cancel("HTTP: " + why);
        }
    }

    /** The whole body's bytes go back to the server's budget: the exchange is over, or cannot complete. */
    private void releaseBody() {
        if (wholeBody != null) {
            wholeBody.release();
        }
    }

    void started(Task<Void> handlerTask) {
        this.task = handlerTask;
    }

    boolean isTakenOver() {
        return takenOver;
    }

    /** Whether {@code t} is the failure of the request itself (the client broke it off), not the handler's. */
    boolean failedWith(Throwable t) {
        return t == requestFailure;
    }

    /** The request with its whole body, for a whole-request handler. */
    HttpRequest wholeRequest() {
        return wholeBodyLength() == 0 ? request : request.withBody(wholeBody.toArray());
    }

    /** The handler failed (and it was reported): 500 if no response began, else the response begun is aborted. */
    void handlerFailed() {
        if (!responseStarted()) {
            respond(HttpResponse.text(500, "Internal Server Error"));
        } else if (sendingBody()) {
            state.refuse();
            connection.end().abort();
        }
    }
}
