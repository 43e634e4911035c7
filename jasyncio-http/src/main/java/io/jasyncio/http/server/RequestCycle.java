package io.jasyncio.http.server;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpMessageListener;
import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpParser;
import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.codec.LingeringClose;
import io.jasyncio.http.codec.PeerEof;
import io.jasyncio.http.codec.PipelinedInput;
import io.jasyncio.http.codec.ReceiveDeadlines;
import io.jasyncio.http.codec.ServerConnectionState;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.Transport;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One connection's requests, parsed and answered one at a time, in order: the parser's listener,
 * and the adapter from its events to the codec's {@link ServerConnectionState} and to an
 * {@link HttpExchange} per request, run by {@link HandlerTask}. While a request is answered the
 * parser stops at its end; bytes read beyond it wait in the {@link PipelinedInput} and are parsed
 * once the response is written.
 */
final class RequestCycle implements HttpMessageListener {
    private final HttpConnection connection;
    private final ServerConnections server;
    private final EventLoop loop;
    private final RequestParsing parsing;
    private final ServerConnectionState state = new ServerConnectionState();
    private final PipelinedInput input;
    private final ReceiveDeadlines deadlines;
    private final ResponseWriter writer;
    private final ReadFlow flow;
    private final ConnectionEnd end;
    private final HandlerTask handlers;
    /** Whether the server's handler streams (else it gets each request whole, after its body). */
    private final boolean streaming;
    /** The body of the request being answered ({@link IncomingBody#NONE} between requests). */
    private IncomingBody body = IncomingBody.NONE;
    /** The request being answered, or null. */
    private HttpExchange exchange;

    RequestCycle(HttpConnection connection, ServerConnections server, PipelinedInput input, ReceiveDeadlines deadlines,
                 ResponseWriter writer, ReadFlow flow, ConnectionEnd end) {
        this.connection = connection;
        this.server = server;
        this.loop = server.loop();
        this.input = input;
        this.deadlines = deadlines;
        this.writer = writer;
        this.flow = flow;
        this.end = end;
        this.streaming = server.streamingHandler() != null;
        this.handlers = new HandlerTask(this, server, end);
        this.parsing = new RequestParsing(connection, this, server, state, input, deadlines, writer, flow, end);
    }

    EventLoop loop() {
        return loop;
    }

    /** A read, parsed in order. */
    void parseRead(ByteBuffer data) {
        parsing.parseRead(data);
    }

    /** The client takes our writes again: held requests are parsed if none is being answered. */
    void writingResumed() {
        if (exchange == null && !state.awaitingResponse() && !input.isEmpty()) {
            parsing.resumeSoon();
        }
    }

    /** The client closed its side; returns whether the connection stays open (half-closed) to answer what it sent. */
    boolean clientEof() {
        switch (PeerEof.of(end.isClosing(), state.awaitingResponse(), !input.isEmpty(), server.options().handlerCancellation())) {
            case CLOSE_AFTER_WRITES -> {
                end.eofWhileClosing();
                return false;
            }
            case CLIENT_GONE -> {
                end.clientGone();
                return false;
            }
            case END_OF_REQUESTS -> endOfRequests();
            case ANSWER_THE_REST -> {
            }
        }
        return !end.isClosing() && (exchange != null || !input.isEmpty());
    }

    /**
     * The client sent all it will and every byte of it is parsed: a body cut short fails its
     * exchange, and with no request left to answer the connection closes.
     */
    void endOfRequests() {
        try {
            parsing.parser().feedEof();
        } catch (HttpParseException e) {
            if (exchange != null) {
                body.failed(e); // a waiting read throws it
                if (!state.responseStarted()) {
                    state.refuse(); // no response may begin now
                }
                if (!streaming) {
                    answered(); // a whole-request handler never started: nothing to answer
                }
            }
        }
        if (exchange == null && !end.isClosing()) {
            closeGracefully();
        }
    }

    // ---- the parser's events -------------------------------------------------------------------

    @Override
    public boolean onRequestHead(HttpRequest request) throws HttpParseException {
        HttpParser parser = parsing.parser();
        boolean hasBody = parser.isChunked() || parser.contentLength() > 0;
        state.requestHead(request, hasBody);
        body = !hasBody ? IncomingBody.NONE
                : streaming ? new RequestBody(loop) : new WholeBody(server.bodyBudget(), parser.contentLength());
        HttpExchange ex = new HttpExchange(this, state, request, body, writer, flow, end);
        exchange = ex;
        double now = loop.time();
        deadlines.headArrived(now, hasBody);
        if (hasBody && !state.continueDue()) { // right after the head: due exactly when the client expects 100-continue
            deadlines.bodyRequested(now, flow.isReadingPaused()); // else once the 100 (Continue) asks for it
        }
        if (streaming) {
            handlers.dispatch(ex);
        } else {
            continueIfDue(); // the whole-request handler needs the body: ask for it at once
        }
        return !end.isClosing() && !end.isHandedOver();
    }

    @Override
    public boolean onBody(ByteBuffer chunk) throws HttpParseException {
        deadlines.bodyArrived(loop.time(), chunk.remaining());
        if (exchange != null && (!state.responseStarted() || state.sendingBody())) {
            body.arrived(chunk); // else answered already: the rest of the body is dropped
        }
        return !end.isClosing();
    }

    @Override
    public boolean onMessageComplete(HttpHeaders trailers) {
        if (end.isHandedOver()) {
            return false; // taken over: the bytes after this request are not HTTP
        }
        HttpExchange ex = exchange;
        deadlines.requestComplete();
        if (ex == null) {
            return !end.isClosing(); // answered before its body ended; the connection closes
        }
        state.requestEnded();
        body.completed();
        if (!streaming) {
            handlers.dispatch(ex);
        }
        if (end.isHandedOver()) {
            return false; // taken over while dispatched
        }
        if (exchange == null) {
            // answered at once: on to the next request, unless the client is not taking our
            // responses (then the rest waits, and writingResumed parses it)
            return !end.isClosing() && !flow.isWritePaused();
        }
        return false; // the parser stops at the end of this request until it is answered (state.awaitingResponse())
    }

    /** The exchange is over for this connection (answered, refused, or handed over). */
    private void answered() {
        exchange = null;
        handlers.exchangeEnded();
        body.release();
        body = IncomingBody.NONE;
    }

    // ---- what the exchange tells -----------------------------------------------------------------

    /** A streaming handler read body bytes: room again, so the socket is read if it was paused for us. */
    void readMore() {
        connection.updateReading();
    }

    /** Sends 100 (Continue) if the client waits for it: the body asked for must now come at the floor's rate. */
    void continueIfDue() {
        if (state.continueDue()) {
            state.continueSent();
            writer.continueResponse();
            deadlines.bodyRequested(loop.time(), flow.isReadingPaused());
        }
    }

    /** Whether no request follows this one: the server shuts down, or the client closed its side after it. */
    boolean closesAfterResponse() {
        return server.isShuttingDown() || end.isClosing() || (end.peerClosed() && input.isEmpty());
    }

    /** The response to {@code ex} is written (into the transport or the outbound buffer). */
    void exchangeFinished(HttpExchange ex) {
        if (exchange != ex) {
            return;
        }
        answered();
        if (closesAfterResponse() || !state.startNextCycle()) {
            closeGracefully(); // a reason to close, or the state machine says so (MUST_CLOSE)
            return;
        }
        deadlines.idle(loop.time());
        if (!parsing.inFeed()) {
            writer.flushUnlessCorked();
            if (!input.isEmpty()) {
                parsing.resumeSoon(); // not from inside the handler's task
            } else if (end.peerClosed()) {
                closeGracefully(); // nothing more will come
            } else {
                connection.updateReading();
            }
        }
    }

    /**
     * A handler took the connection over ({@link HttpExchange#takeOver}), its response head staged:
     * the server lets go of the connection (holding the handler's task until it ends), and soon
     * {@link HandOver} gives the transport to {@code protocol} with the bytes held here.
     */
    Transport handOver(Protocol protocol) {
        handlers.holdUntilDone();
        answered();
        Transport transport = connection.transport();
        end.handOver(new HandOver(protocol, transport, input, flow));
        server.handedOver(connection, transport);
        return transport;
    }

    // ---- how the cycle ends ----------------------------------------------------------------------

    /** Answers a refused request with its status and closes (aborts if a response already began). */
    void refuse(HttpParseException e) {
        boolean mayAnswer = state.refuse();
        if (exchange != null) {
            body.failed(e); // a waiting read throws it
            answered();
        }
        if (!mayAnswer) {
            end.abort(); // a response began: it cannot be completed, nor another begin
            return;
        }
        writer.refusal(e);
        end.close(true); // the client may be sending still: the rest of this request, or more
    }

    /** Sends what is buffered, then closes; lingers first when the client may be sending still ({@link LingeringClose}). */
    void closeGracefully() {
        end.close(LingeringClose.clientMaySend(parsing.parser().inMessage(), !input.isEmpty(),
                parsing.unparsedInRead()));
    }

    /** The connection is lost: the exchange's body and response fail, and its handler is cancelled (if the server cancels). */
    void lost() {
        if (exchange == null) {
            return;
        }
        String why = end.dropReason() != null ? end.dropReason() : "the connection was lost";
        body.failed(new IOException(why));
        state.refuse(); // a response begun cannot be completed
        handlers.cancel("HTTP: " + why); // if the server cancels handlers
        answered();
    }

    /** Graceful shutdown: an idle connection closes now, a busy one after its response. */
    void shutdown() {
        if (exchange == null && !state.awaitingResponse() && !parsing.parser().inMessage()) {
            closeGracefully();
        }
    }

    // ---- what the tests observe ----------------------------------------------------------------

    /** Request bytes held: read and not parsed, or body not yet read by a streaming handler. */
    long heldBytes() {
        return input.size() + body.queuedBytes();
    }

    boolean inRequest() {
        return exchange != null;
    }

    long wholeBodyBytes() {
        return body.gatheredBytes();
    }
}
