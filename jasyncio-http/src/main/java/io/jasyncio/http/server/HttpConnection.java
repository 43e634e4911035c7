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
import io.jasyncio.http.codec.SendDeadlines;
import io.jasyncio.http.codec.ServerConnectionState;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.Transport;
import io.jasyncio.task.Task;

import java.nio.ByteBuffer;

/**
 * One HTTP/1.1 connection: the adapter between the transport, the parser and the handler tasks on
 * one side and the codec's I/O-free decisions on the other ({@link ServerConnectionState}: what
 * may happen next; {@link PipelinedInput}: the bytes that wait; {@link ReceiveDeadlines} and
 * {@link SendDeadlines}: what is timed; {@link LingeringClose}, {@link PeerEof}: how it ends).
 * Requests are answered one at a time, in order: while one is, the parser stops at its end and
 * what was read after it waits; the socket is no longer read once that, or a body a streaming
 * handler has not read, passes the mark ({@link ReadFlow}). So memory per connection stays
 * bounded whatever the client does.
 */
final class HttpConnection implements Protocol, HttpMessageListener {
    private static final System.Logger LOG = System.getLogger("io.jasyncio.http.server");

    private final ServerConnections server;
    private final EventLoop loop;
    private final HttpParser parser;
    private final ServerConnectionState state = new ServerConnectionState();
    private final PipelinedInput input = new PipelinedInput();
    private final ReceiveDeadlines deadlines;
    private final SendDeadlines sending;
    private final LingeringClose linger = new LingeringClose();
    private final ReadFlow flow;
    private final ResponseWriter writer = new ResponseWriter();
    private final HandlerTask handlers;
    private final Runnable resumeParsing = this::resumeParsing;
    private Transport transport;
    /** This connection's place in the server's list (for removal in O(1)). */
    int slot = -1;

    /** The request being answered, or null. */
    private HttpExchange exchange;
    private boolean inFeed;
    /** The bytes being parsed, while they are (past its position: what the client sent after the current message). */
    private ByteBuffer feeding;
    private boolean peerClosed;
    private boolean closeRequested;
    private boolean closed;
    /** Set once a handler took the connection over (Upgrade, CONNECT): no more HTTP here. */
    private HandOver handOver;
    /** Why this side dropped the connection (a send timeout, the client gone), for what the handler sees; or null. */
    private String dropReason;

    HttpConnection(ServerConnections server) {
        this.server = server;
        this.loop = server.loop();
        this.parser = HttpParser.forRequests(server.options().limits(), this);
        this.deadlines = new ReceiveDeadlines(server.timeouts());
        this.sending = new SendDeadlines(server.timeouts());
        this.flow = new ReadFlow(loop, server.options().readPauseBytes());
        this.handlers = new HandlerTask(this, server);
    }

    /** Whether the client is still there: the connection open, and the client's side not closed. */
    boolean clientConnected() {
        return !closed && !peerClosed;
    }

    Transport transport() {
        return transport;
    }

    EventLoop loop() {
        return loop;
    }

    /** Whether the connection is lost or closing: a handler's failure then is no fault of its own. */
    boolean isGone() {
        return closed || closeRequested;
    }

    // ---- the transport's events ----------------------------------------------------------------

    @Override
    public void connectionMade(Transport transport) {
        this.transport = transport;
        writer.attach(transport, Outbound.of(loop));
        flow.attach(transport);
        HttpServerOptions options = server.options();
        transport.setWriteBufferLimits(options.writeHighWater(), options.writeLowWater());
        if (!server.add(this)) {
            closeRequested = true;
            transport.close(); // shutting down: no new connections
            return;
        }
        sending.progressed(loop.time());
        deadlines.idle(loop.time());
    }

    @Override
    public void dataReceived(ByteBuffer data) {
        if (handOver != null) {
            input.hold(data); // the successor's, from its connectionMade on
            return;
        }
        if (closeRequested) {
            if (linger.isActive()) {
                int n = data.remaining();
                data.position(data.limit());
                if (linger.dropped(n)) {
                    endLinger();
                }
            }
            return; // answered and closing: the rest is dropped
        }
        if (state.awaitingResponse() || !input.isEmpty()) {
            input.hold(data);
        } else {
            writer.cork();
            try {
                feed(data);
                if (data.hasRemaining()) {
                    input.hold(data);
                }
            } finally {
                writer.uncork();
            }
        }
        updateReading();
    }

    @Override
    public boolean eofReceived() {
        peerClosed = true;
        if (handOver != null) {
            handOver.peerClosed();
            return true; // the successor hears of it
        }
        switch (PeerEof.of(closeRequested, state.awaitingResponse(), !input.isEmpty(), server.options().handlerCancellation())) {
            case CLOSE_AFTER_WRITES -> {
                linger.end();
                return false; // the transport closes once our last bytes are out
            }
            case CLIENT_GONE -> {
                dropReason = "the client closed the connection while its request was being answered";
                closeRequested = true;
                return false; // the transport closes, and connectionLost cancels the handler
            }
            case END_OF_REQUESTS -> endOfRequests();
            case ANSWER_THE_REST -> {
            }
        }
        return !closeRequested && (exchange != null || !input.isEmpty());
    }

    @Override
    public void connectionLost(Throwable exc) {
        closed = true;
        if (handOver != null) {
            handOver.lost(exc);
        }
        if (exchange != null) {
            exchange.connectionLost(dropReason, server.options().handlerCancellation());
            exchange = null;
        }
        flow.lost(dropReason);
        server.remove(this);
    }

    @Override
    public void pauseWriting() {
        flow.pauseWriting();
        updateReading();
    }

    @Override
    public void resumeWriting() {
        flow.resumeWriting();
        sending.progressed(loop.time());
        updateReading();
        if (exchange == null && !state.awaitingResponse() && !input.isEmpty()) {
            loop.callSoon(resumeParsing);
        }
    }

    // ---- the parser's events -------------------------------------------------------------------

    @Override
    public boolean onRequestHead(HttpRequest request) throws HttpParseException {
        boolean hasBody = parser.isChunked() || parser.contentLength() > 0;
        boolean streaming = server.streamingHandler() != null;
        state.requestHead(request, hasBody);
        HttpExchange ex = new HttpExchange(this, writer, state, flow, request, streaming, hasBody,
                parser.contentLength(), server.bodyBudget());
        exchange = ex;
        deadlines.headArrived(loop.time(), hasBody);
        if (hasBody && !request.expectsContinue()) {
            deadlines.bodyRequested(loop.time(), flow.isReadingPaused()); // else once the 100 (Continue) asks for it
        }
        if (streaming) {
            handlers.dispatch(ex);
        } else if (state.continueDue()) {
            state.continueSent();
            sendContinue(); // the whole-request handler needs the body: ask for it at once
        }
        return !closeRequested && handOver == null;
    }

    @Override
    public boolean onBody(ByteBuffer chunk) throws HttpParseException {
        deadlines.bodyArrived(loop.time(), chunk.remaining());
        HttpExchange ex = exchange;
        if (ex != null) {
            ex.bodyArrived(chunk);
        }
        return !closeRequested;
    }

    @Override
    public boolean onMessageComplete(HttpHeaders trailers) {
        if (handOver != null) {
            return false; // taken over: the bytes after this request are not HTTP
        }
        HttpExchange ex = exchange;
        deadlines.requestComplete();
        if (ex == null) {
            return !closeRequested; // answered before its body ended; the connection closes
        }
        state.requestEnded();
        ex.requestCompleted();
        if (!ex.isStreaming()) {
            handlers.dispatch(ex);
        }
        if (handOver != null) {
            return false; // taken over while dispatched
        }
        if (exchange == null) {
            // answered at once: on to the next request, unless the client is not taking our
            // responses (then the rest waits, and resumeWriting parses it)
            return !closeRequested && !flow.isWritePaused();
        }
        return false; // the parser stops at the end of this request until it is answered (state.awaitingResponse())
    }

    // ---- requests in, responses out ------------------------------------------------------------

    private void feed(ByteBuffer data) {
        inFeed = true;
        feeding = data;
        try {
            parser.feed(data);
        } catch (HttpParseException e) {
            data.position(data.limit());
            refuse(e);
        } finally {
            inFeed = false;
            feeding = null;
        }
        if (exchange == null && parser.inMessage()) {
            deadlines.requestBegan(loop.time()); // a request began: its head has a deadline
        }
    }

    /** Parses the held bytes again once the request before them is answered. */
    private void resumeParsing() {
        if (closeRequested || closed || handOver != null) {
            return;
        }
        writer.cork();
        try {
            while (!state.awaitingResponse() && exchange == null && !closeRequested && !flow.isWritePaused()
                    && !input.isEmpty()) {
                ByteBuffer view = input.parseView();
                feed(view);
                input.consumed(view);
            }
        } finally {
            writer.uncork();
        }
        if (input.isEmpty() && peerClosed && !state.awaitingResponse() && !closeRequested) {
            endOfRequests();
            return;
        }
        updateReading();
    }

    /**
     * The client sent all it will and every byte of it is parsed: a body cut short fails its
     * exchange, and with no request left to answer the connection closes.
     */
    private void endOfRequests() {
        try {
            parser.feedEof();
        } catch (HttpParseException e) {
            if (exchange != null) {
                exchange.requestFailed(e);
                if (!exchange.isStreaming()) {
                    exchange = null; // a whole-request handler never started: nothing to answer
                }
            }
        }
        if (exchange == null && !closeRequested) {
            closeGracefully();
        }
    }

    /** Sends 100 (Continue): the client is asked for the body, which from now on must come at the floor's rate. */
    void sendContinue() {
        writer.continueResponse();
        deadlines.bodyRequested(loop.time(), flow.isReadingPaused());
    }

    /** Whether no request follows this one: the server shuts down, or the client closed its side after it. */
    boolean closesAfterResponse() {
        return server.isShuttingDown() || closeRequested || (peerClosed && input.isEmpty());
    }

    /** The response to {@code ex} is written (into the transport or the outbound buffer). */
    void exchangeFinished(HttpExchange ex) {
        if (exchange != ex) {
            return;
        }
        exchange = null;
        if (closesAfterResponse() || !state.startNextCycle()) {
            closeGracefully(); // a reason to close, or the state machine says so (MUST_CLOSE)
            return;
        }
        deadlines.idle(loop.time());
        if (!inFeed) {
            writer.flushUnlessCorked();
            if (!input.isEmpty()) {
                loop.callSoon(resumeParsing); // not from inside the handler's task
            } else if (peerClosed) {
                closeGracefully(); // nothing more will come
            } else {
                updateReading();
            }
        }
    }

    // ---- taking over, refusing, closing --------------------------------------------------------

    /**
     * A handler took the connection over ({@link HttpExchange#takeOver}): its response head is
     * staged; the server lets go of the connection now, and soon (outside the parser, after the
     * handler's step) {@link HandOver} gives the transport to {@code protocol} with the bytes held here.
     */
    void handOver(Protocol protocol, Task<Void> handler) {
        if (handler != null) {
            server.holdUntilDone(handler); // the server keeps the handler's task until it ends
        }
        handOver = new HandOver(protocol, transport, input, flow);
        if (peerClosed) {
            handOver.peerClosed();
        }
        exchange = null;
        deadlines.stop();
        writer.flush(); // the 101 or 2xx goes out before anything the successor writes
        server.remove(this);
        loop.callSoon(handOver);
    }

    /** Answers a refused request with its status and closes (aborts if a response already began). */
    private void refuse(HttpParseException e) {
        HttpExchange ex = exchange;
        exchange = null;
        boolean mayAnswer = state.refuse();
        if (ex != null) {
            ex.requestFailed(e);
        }
        if (!mayAnswer) {
            abort(); // a response began: it cannot be completed, nor another begin
            return;
        }
        writer.refusal(e);
        close(true); // the client may be sending still: the rest of this request, or more
    }

    /** Sends what is buffered, then closes; lingers first when the client may be sending still ({@link LingeringClose}). */
    void closeGracefully() {
        close(LingeringClose.clientMaySend(parser.inMessage(), !input.isEmpty(), feeding != null && feeding.hasRemaining()));
    }

    /** Closes after what is buffered is sent; with {@code clientMaySend}, a lingering close (our side shut first). */
    private void close(boolean clientMaySend) {
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
        linger.begin(server.options().lingerBytes());
        input.clear(); // requests after a closing one are not answered
        deadlines.linger(loop.time());
        if (transport.canWriteEof()) {
            transport.writeEof(); // not over TLS, which cannot
        }
        flow.resumeReading();
    }

    private void endLinger() {
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

    /** Graceful shutdown: an idle connection closes now, a busy one after its response. */
    void shutdown() {
        if (exchange == null && !state.awaitingResponse() && !parser.inMessage()) {
            closeGracefully();
        }
    }

    /** Reads the socket only while little is held here and the client takes our writes. */
    void updateReading() {
        if (closed || transport == null || linger.isActive() || handOver != null) {
            return;
        }
        if (flow.update(heldBytes())) {
            deadlines.readingChanged(loop.time(), !flow.isReadingPaused()); // the body's clock runs only while we read it
        }
    }

    /** The server's sweep at {@code now}: drops a client that does not take its responses, acts on a deadline passed. */
    void checkTimeout(double now) {
        SendDeadlines.Verdict sent = sending.check(now, transport.getWriteBufferSize(), writer.bytesSent(), closed);
        if (sent != SendDeadlines.Verdict.OK) {
            dropReason = sending.reason();
            LOG.log(System.Logger.Level.INFO, () -> "HTTP connection from " + transport.getExtraInfo("peername")
                    + " dropped: " + dropReason);
            abort();
            return;
        }
        switch (deadlines.check(now, closeRequested, flow.isReadingPaused())) {
            case NOTHING -> {
            }
            case END_LINGER -> endLinger();
            case CLOSE_IDLE -> closeGracefully();
            case REFUSE -> refuse(deadlines.refusal());
        }
    }

    // ---- what the tests observe ----------------------------------------------------------------

    /** Request bytes held here: read and not parsed, or body not yet read by a streaming handler. */
    long heldBytes() {
        return input.size() + (exchange != null ? exchange.queuedBodyBytes() : 0);
    }

    /** Response bytes the transport holds, not yet taken by the socket. */
    long bufferedResponseBytes() {
        return transport.getWriteBufferSize();
    }

    /** Whether a request's head is parsed and its response not yet written. */
    boolean inRequest() {
        return exchange != null;
    }

    /** Body bytes gathered for the whole-request handler of the request being received. */
    long wholeBodyBytes() {
        return exchange != null ? exchange.wholeBodyLength() : 0;
    }

    boolean isReadingPaused() {
        return flow.isReadingPaused();
    }

    boolean isWritePaused() {
        return flow.isWritePaused();
    }
}
