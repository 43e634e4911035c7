package io.jasyncio.http.server;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpLimits;
import io.jasyncio.http.HttpMessageListener;
import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpParser;
import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.codec.Refusal;
import io.jasyncio.http.codec.ServerConnectionState;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.Transport;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static io.jasyncio.task.Tasks.await;

/**
 * One HTTP/1.1 connection as a protocol: parses requests as bytes arrive and answers them one at
 * a time, in order. While a request is being answered the parser stops at its end; bytes read
 * beyond it (pipelined requests) wait here, and the socket is no longer read once they, or a
 * body a streaming handler has not read, pass the mark, or while the transport's write buffer is
 * above its high-water mark. So memory per connection stays bounded whatever the client does.
 */
final class HttpConnection implements Protocol, HttpMessageListener, Coroutine<Void> {
    private enum Timer { NONE, IDLE, HEAD, BODY, LINGER }

    private static final System.Logger LOG = System.getLogger("io.jasyncio.http.server");

    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NOTHING = new byte[0];

    private final ServerConnections server;
    private final EventLoop loop;
    private final HttpParser parser;
    /** What HTTP/1.1 allows next on this connection (keep-alive, order, 100-continue, framing); no I/O. */
    private final ServerConnectionState state = new ServerConnectionState();
    private final Runnable resumeParsing = this::resumeParsing;
    private Transport transport;
    private Outbound outbound;
    /** This connection's place in the server's list (for removal in O(1)). */
    int slot = -1;

    /** The exchange whose handler task is being created (the task's body, {@link #run}, takes it). */
    private HttpExchange dispatching;
    /** The request being answered, or null. */
    private HttpExchange exchange;
    /** Bytes read and not parsed yet, between pendingStart and pendingEnd. */
    private byte[] pending = NOTHING;
    private int pendingStart;
    private int pendingEnd;
    private ByteBuffer pendingView;

    private boolean writePaused;
    private boolean readingPaused;
    private boolean corked;
    private boolean inFeed;
    /** The bytes being parsed, while they are (past its position: what the client sent after the current message). */
    private ByteBuffer feeding;
    private boolean peerClosed;
    private boolean closeRequested;
    private boolean closed;
    /** Closing: our side is shut, and what the client still sends is read and dropped (RFC 9112 §9.6). */
    private boolean lingering;
    private long lingerBytesLeft;
    /** The protocol the connection is handed to (Upgrade, CONNECT), once a handler took it over. */
    private Protocol successor;
    private Throwable lostWith;
    /** Why this side dropped the connection (a send timeout), for what the handler sees; or null. */
    private String dropReason;
    private Future<Void> drained;

    /** The transport's buffered response bytes at the last sweep, and when it last saw them taken. */
    private long lastBuffered;
    private double sendProgressAt;
    /** Response bytes handed to the outbound buffer or the transport (counted by {@link Outbound}). */
    long bytesSent;
    /** Response bytes the client had taken at the last sweep. */
    private long takenSeen;
    /** The request body's rate against its floor, while the server reads it; null: no floor, or no body yet. */
    private RateMeter bodyRate;
    /** The rate the client takes response bytes while some wait for it; null: no floor, or none waited yet. */
    private RateMeter sendRate;
    /** When the request being received began (its first byte, or its head), for the whole-request deadline; NaN: none. */
    private double requestStartedAt = Double.NaN;

    private Timer timer = Timer.NONE;
    private double deadline;

    HttpConnection(ServerConnections server) {
        this.server = server;
        this.loop = server.loop();
        HttpLimits limits = server.options().limits();
        this.parser = HttpParser.forRequests(limits, this);
    }

    BodyBudget bodyBudget() {
        return server.bodyBudget();
    }

    /** Whether the client is still there: the connection open, and the client's side not closed. */
    boolean clientConnected() {
        return !closed && !peerClosed;
    }

    EventLoop loop() {
        return loop;
    }

    ServerConnectionState state() {
        return state;
    }

    Transport transport() {
        return transport;
    }

    Outbound outbound() {
        return outbound;
    }

    /** Whether the connection is lost or closing: a handler's failure then is no fault of its own. */
    boolean isGone() {
        return closed || closeRequested;
    }

    // ---- the transport's events ----------------------------------------------------------------

    @Override
    public void connectionMade(Transport transport) {
        this.transport = transport;
        this.outbound = Outbound.of(loop);
        HttpServerOptions options = server.options();
        transport.setWriteBufferLimits(options.writeHighWater(), options.writeLowWater());
        if (!server.add(this)) {
            closeRequested = true;
            transport.close(); // shutting down: no new connections
            return;
        }
        sendProgressAt = loop.time();
        startTimer(Timer.IDLE, options.idleTimeout());
    }

    @Override
    public void dataReceived(ByteBuffer data) {
        if (successor != null) {
            hold(data); // the successor's, from its connectionMade on
            return;
        }
        if (closeRequested) {
            if (lingering) {
                drop(data);
            }
            return; // answered and closing: the rest is dropped
        }
        if (state.awaitingResponse() || pendingEnd > pendingStart) {
            hold(data);
        } else {
            corked = true;
            try {
                feed(data);
                if (data.hasRemaining()) {
                    hold(data);
                }
            } finally {
                corked = false;
                outbound.flush(transport);
            }
        }
        updateReading();
    }

    @Override
    public boolean eofReceived() {
        peerClosed = true;
        if (successor != null) {
            return true; // the successor hears of it
        }
        if (closeRequested) {
            lingering = false;
            return false; // closing already: the transport closes once our last bytes are out
        }
        if (state.awaitingResponse() && pendingEnd == pendingStart && server.options().handlerCancellation()) {
            // a handler runs for the client's last request, and the client closed its side: it has
            // gone (as Go and aiohttp take it); the transport closes, and connectionLost cancels the handler
            dropReason = "the client closed the connection while its request was being answered";
            closeRequested = true;
            return false;
        }
        if (!state.awaitingResponse() && pendingEnd == pendingStart) {
            endOfRequests();
        }
        // requests being answered or waiting to be parsed: keep the connection to answer them
        return !closeRequested && (exchange != null || pendingEnd > pendingStart);
    }

    @Override
    public void connectionLost(Throwable exc) {
        closed = true;
        lostWith = exc;
        if (exchange != null) {
            exchange.connectionLost(dropReason, server.options().handlerCancellation());
            exchange = null;
        }
        wakeDrainWaiter();
        server.remove(this);
    }

    @Override
    public void pauseWriting() {
        writePaused = true;
        updateReading();
    }

    @Override
    public void resumeWriting() {
        writePaused = false;
        sendProgressAt = loop.time();
        wakeDrainWaiter();
        updateReading();
        if (exchange == null && !state.awaitingResponse() && pendingEnd > pendingStart) {
            loop.callSoon(resumeParsing);
        }
    }

    // ---- the parser's events -------------------------------------------------------------------

    @Override
    public boolean onRequestHead(HttpRequest request) throws HttpParseException {
        boolean hasBody = parser.isChunked() || parser.contentLength() > 0;
        boolean streaming = server.streamingHandler() != null;
        state.requestHead(request, hasBody);
        HttpExchange ex = new HttpExchange(this, request, streaming, hasBody, parser.contentLength(), server.bodyBudget());
        exchange = ex;
        if (hasBody) {
            startTimer(Timer.BODY, server.options().bodyReadTimeout());
            if (Double.isNaN(requestStartedAt)) {
                requestStartedAt = loop.time();
            }
            if (!request.expectsContinue()) {
                startBodyMeter(); // else once the 100 (Continue) asks for the body
            }
        } else {
            timer = Timer.NONE;
        }
        if (streaming) {
            dispatch(ex);
        } else if (state.continueDue()) {
            state.continueSent();
            sendContinue(); // the whole-request handler needs the body: ask for it at once
        }
        return !closeRequested && successor == null;
    }

    @Override
    public boolean onBody(ByteBuffer chunk) throws HttpParseException {
        if (bodyRate != null) {
            bodyRate.add(chunk.remaining());
        }
        HttpExchange ex = exchange;
        if (ex != null) {
            ex.bodyArrived(chunk);
        }
        if (timer == Timer.BODY) {
            deadline = loop.time() + server.options().bodyReadTimeout();
        }
        return !closeRequested;
    }

    @Override
    public boolean onMessageComplete(HttpHeaders trailers) {
        if (successor != null) {
            return false; // taken over: the bytes after this request are not HTTP
        }
        HttpExchange ex = exchange;
        timer = Timer.NONE;
        requestStartedAt = Double.NaN;
        if (bodyRate != null) {
            bodyRate.stop();
        }
        if (ex == null) {
            return !closeRequested; // answered before its body ended; the connection closes
        }
        state.requestEnded();
        ex.requestCompleted();
        if (!ex.isStreaming()) {
            dispatch(ex);
        }
        if (successor != null) {
            return false; // taken over while dispatched
        }
        if (exchange == null) {
            // answered at once: on to the next request, unless the client is not taking our
            // responses (then the rest waits, and resumeWriting parses it)
            return !closeRequested && !writePaused;
        }
        return false; // the parser stops at the end of this request until it is answered (state.awaitingResponse())
    }

    // ---- requests in, responses out ------------------------------------------------------------

    /**
     * Runs the handler for {@code ex} as a task of its own, eagerly (a handler that does not
     * suspend is done when this returns). The task's body is this connection ({@link #run}), not
     * a lambda per request: one exchange at a time is dispatched, and its task starts before the
     * next can be.
     */
    private void dispatch(HttpExchange ex) {
        dispatching = ex;
        Task<Void> task = Tasks.createEager(loop, this, null, null);
        if (!task.isDone()) {
            ex.started(task);
        }
    }

    /** The handler task's body: the exchange {@link #dispatch} was given. */
    @Override
    public Void run() {
        HttpExchange ex = dispatching;
        dispatching = null;
        return ex.run(server.wholeHandler(), server.streamingHandler());
    }

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
        if (exchange == null && timer == Timer.IDLE && parser.inMessage()) {
            startTimer(Timer.HEAD, server.options().headerTimeout()); // a request began: its head has a deadline
            requestStartedAt = loop.time();
        }
    }

    /** Parses the held bytes again once the request before them is answered. */
    private void resumeParsing() {
        if (closeRequested || closed || successor != null) {
            return;
        }
        corked = true;
        try {
            while (!state.awaitingResponse() && exchange == null && !closeRequested && !writePaused && pendingEnd > pendingStart) {
                ByteBuffer view = pendingView.limit(pendingEnd).position(pendingStart);
                feed(view);
                pendingStart = view.position();
            }
        } finally {
            corked = false;
            outbound.flush(transport);
        }
        if (pendingStart == pendingEnd) {
            pendingStart = pendingEnd = 0;
            if (peerClosed && !state.awaitingResponse() && !closeRequested) {
                endOfRequests();
                return;
            }
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

    /** Keeps the unparsed rest of a read. */
    private void hold(ByteBuffer data) {
        int n = data.remaining();
        if (pendingEnd + n > pending.length) {
            int held = pendingEnd - pendingStart;
            if (held + n <= pending.length) {
                System.arraycopy(pending, pendingStart, pending, 0, held);
            } else {
                pending = Arrays.copyOfRange(pending, pendingStart, pendingStart + Math.max(held + n, pending.length * 2));
            }
            pendingStart = 0;
            pendingEnd = held;
            pendingView = ByteBuffer.wrap(pending);
        }
        data.get(pending, pendingEnd, n);
        pendingEnd += n;
    }

    void sendContinue() {
        outbound.put(this, CONTINUE);
        flushUnlessCorked();
        startBodyMeter();
    }

    /** The client is asked for the body (or needs no asking): from now on it must send at the floor's rate. */
    private void startBodyMeter() {
        MinDataRate floor = server.options().minRequestBodyRate();
        if (bodyRate == null && floor != null) {
            bodyRate = new RateMeter(floor); // made on the first body: an idle connection does without
        }
        if (bodyRate != null && !bodyRate.isActive()) {
            bodyRate.start(loop.time());
            if (readingPaused) {
                bodyRate.pause(loop.time());
            }
        }
    }

    void flushUnlessCorked() {
        if (!corked) {
            outbound.flush(transport);
        }
    }

    /** Whether no request follows this one: the server shuts down, or the client closed its side after it. */
    boolean closesAfterResponse() {
        return server.isShuttingDown() || closeRequested || (peerClosed && pendingEnd == pendingStart);
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
        startTimer(Timer.IDLE, server.options().idleTimeout());
        if (!inFeed) {
            flushUnlessCorked();
            if (pendingEnd > pendingStart) {
                loop.callSoon(resumeParsing); // not from inside the handler's task
            } else if (peerClosed) {
                closeGracefully(); // nothing more will come
            } else {
                updateReading();
            }
        }
    }

    /**
     * A handler took the connection over ({@link HttpExchange#takeOver}): its response head is
     * staged; the server lets go of the connection now, and soon (outside the parser, after the
     * handler's step) the transport is handed to {@code protocol} with the bytes held here.
     */
    void handOver(HttpExchange ex, Protocol protocol) {
        successor = protocol;
        exchange = null;
        timer = Timer.NONE;
        outbound.flush(transport); // the 101 or 2xx goes out before anything the successor writes
        server.remove(this);
        loop.callSoon(this::completeHandOver);
    }

    /** The server holds {@code handler}, the task of the exchange that took this connection over, until it ends. */
    void holdHandlerUntilDone(Task<Void> handler) {
        server.holdUntilDone(handler);
    }

    private void completeHandOver() {
        Protocol next = successor;
        if (!closed) {
            transport.setProtocol(next);
        }
        next.connectionMade(transport);
        if (pendingEnd > pendingStart) {
            ByteBuffer rest = ByteBuffer.wrap(Arrays.copyOfRange(pending, pendingStart, pendingEnd));
            pendingStart = pendingEnd = 0;
            next.dataReceived(rest);
        }
        pending = NOTHING;
        if (closed) {
            next.connectionLost(lostWith);
            return;
        }
        if (peerClosed && !next.eofReceived()) {
            transport.close();
        }
        if (readingPaused) {
            readingPaused = false;
            transport.resumeReading();
        }
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
        outbound.put(this, Refusal.encode(e, DateHeader.line()));
        close(true); // the client may be sending still: the rest of this request, or more
    }

    /**
     * Sends what is buffered, then closes; lingers first (see {@link #close(boolean)}) when the
     * client may be sending still: a request body not read to its end, or requests after this one
     * (held, or in the read being parsed).
     * Like nginx's {@code lingering_close on} and Go's {@code closeWriteAndWait}; when nothing is
     * left unread, the plain close (Netty, Node) loses nothing.
     */
    void closeGracefully() {
        close(parser.inMessage() || pendingEnd > pendingStart || (feeding != null && feeding.hasRemaining()));
    }

    /**
     * Closes after what is buffered is sent. With {@code linger}, RFC 9112 §9.6's staged close:
     * a close with unread bytes in the socket makes the kernel reset the connection, and a reset
     * can destroy the response before the client reads it. So our side is shut first (the client
     * reads the end of the response; not over TLS, which cannot), what the client still sends is
     * read and dropped, and the connection closes at the client's EOF, or after
     * {@code lingerTimeout} seconds or {@code lingerBytes} bytes.
     */
    private void close(boolean linger) {
        if (closeRequested) {
            return;
        }
        closeRequested = true;
        timer = Timer.NONE;
        outbound.flush(transport);
        if (!linger || peerClosed) {
            transport.close();
            return;
        }
        HttpServerOptions options = server.options();
        lingering = true;
        lingerBytesLeft = options.lingerBytes();
        pendingStart = pendingEnd = 0; // requests after a closing one are not answered
        startTimer(Timer.LINGER, options.lingerTimeout());
        if (transport.canWriteEof()) {
            transport.writeEof();
        }
        if (readingPaused) {
            readingPaused = false;
            transport.resumeReading();
        }
    }

    /** Lingering: drops what the client sends, up to the bound. */
    private void drop(ByteBuffer data) {
        lingerBytesLeft -= data.remaining();
        data.position(data.limit());
        if (lingerBytesLeft < 0) {
            endLinger();
        }
    }

    private void endLinger() {
        lingering = false;
        timer = Timer.NONE;
        transport.close();
    }

    /** Drops the connection at once (a response that cannot be completed, the shutdown deadline). */
    void abort() {
        closeRequested = true;
        lingering = false;
        timer = Timer.NONE;
        outbound.flush(transport);
        transport.abort();
    }

    // ---- flow control --------------------------------------------------------------------------

    /** Reads the socket only while little is held here and the client takes our writes. */
    void updateReading() {
        if (closed || transport == null || lingering || successor != null) {
            return;
        }
        boolean wanted = !writePaused && heldBytes() <= server.options().readPauseBytes();
        if (wanted == readingPaused) {
            readingPaused = !wanted;
            if (wanted) {
                transport.resumeReading();
            } else {
                transport.pauseReading();
            }
            if (bodyRate != null && bodyRate.isActive()) { // the body's clock runs only while we read it
                if (wanted) {
                    bodyRate.resume(loop.time());
                } else {
                    bodyRate.pause(loop.time());
                }
            }
        }
    }

    /** Coroutine: returns once the transport's write buffer is down to its low-water mark. */
    void awaitDrain() throws IOException {
        while (writePaused && !closed) {
            if (drained == null) {
                drained = loop.createFuture();
            }
            await(drained);
        }
        if (closed) {
            throw new IOException(dropReason != null ? dropReason : "the HTTP connection was lost");
        }
    }

    private void wakeDrainWaiter() {
        Future<Void> d = drained;
        if (d != null) {
            drained = null;
            if (!d.isDone()) {
                d.setResult(null);
            }
        }
    }

    // ---- what the tests observe ----------------------------------------------------------------

    /** Request bytes held here: read and not parsed, or body not yet read by a streaming handler. */
    long heldBytes() {
        return (pendingEnd - pendingStart) + (exchange != null ? exchange.queuedBodyBytes() : 0);
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
        return readingPaused;
    }

    boolean isWritePaused() {
        return writePaused;
    }

    // ---- timeouts and shutdown -----------------------------------------------------------------

    private void startTimer(Timer kind, double seconds) {
        timer = kind;
        deadline = loop.time() + seconds;
    }

    /** The server's sweep: acts on a deadline passed at {@code now}. */
    void checkTimeout(double now) {
        if (checkSendProgress(now) || checkResponseRate(now) || checkRequestPace(now) || timer == Timer.NONE
                || now < deadline) {
            return;
        }
        if (timer == Timer.LINGER) {
            endLinger();
            return;
        }
        if (closeRequested) {
            return;
        }
        HttpServerOptions options = server.options();
        switch (timer) {
            case IDLE -> closeGracefully();
            case HEAD -> refuse(new HttpParseException(408, "the request head did not arrive within "
                    + options.headerTimeout() + " s"));
            case BODY -> {
                if (readingPaused) {
                    deadline = now + options.bodyReadTimeout(); // we hold the client back, not it us
                } else {
                    refuse(new HttpParseException(408, "the request body made no progress for "
                            + options.bodyReadTimeout() + " s"));
                }
            }
            case NONE, LINGER -> {
            }
        }
    }

    /**
     * The send timeout: response bytes wait in the transport and the client has taken none of
     * them for {@code sendTimeout} seconds (it stopped reading). Then the connection is dropped,
     * a handler waiting to write learns why, and the server's log says so. True if dropped.
     */
    private boolean checkSendProgress(double now) {
        long buffered = transport.getWriteBufferSize();
        if (buffered == 0 || buffered < lastBuffered) {
            sendProgressAt = now;
        }
        lastBuffered = buffered;
        double limit = server.options().sendTimeout();
        if (buffered == 0 || now - sendProgressAt < limit || closed) {
            return false;
        }
        dropReason = "the client took none of " + buffered + " response bytes for " + limit + " s (it stopped reading)";
        LOG.log(System.Logger.Level.INFO, () -> "HTTP connection from " + transport.getExtraInfo("peername")
                + " dropped: " + dropReason);
        abort();
        return true;
    }

    /**
     * The whole-request deadline and the body's rate floor, while a request is received: past
     * either, 408 (an abort once the response began) and close. True if refused.
     */
    private boolean checkRequestPace(double now) {
        if (closeRequested || Double.isNaN(requestStartedAt)) {
            return false;
        }
        HttpServerOptions options = server.options();
        if (now - requestStartedAt > Timeouts.seconds(options.requestTimeout())) {
            refuse(new HttpParseException(408, "the request did not arrive within "
                    + Timeouts.seconds(options.requestTimeout()) + " s"));
            return true;
        }
        if (bodyRate != null && bodyRate.isBelowFloor(now)) {
            String measured = bodyRate.describe(now);
            bodyRate.stop();
            refuse(new HttpParseException(408, "the request body came too slowly: " + measured));
            return true;
        }
        return false;
    }

    /**
     * The response's rate floor: while response bytes wait in the transport, the client must take
     * them at the floor's rate (after its grace period, counted from when bytes began to wait);
     * else the connection is dropped. True if dropped.
     */
    private boolean checkResponseRate(double now) {
        MinDataRate floor = server.options().minResponseRate();
        if (floor == null || closed) {
            return false;
        }
        long buffered = transport.getWriteBufferSize();
        if (sendRate == null) {
            if (buffered == 0) {
                return false;
            }
            sendRate = new RateMeter(floor); // made when response bytes first wait: most connections never need it
        }
        long taken = bytesSent - buffered;
        if (buffered == 0) {
            sendRate.stop();
        } else if (!sendRate.isActive()) {
            sendRate.start(now);
        } else {
            sendRate.add(taken - takenSeen);
        }
        takenSeen = taken;
        if (!sendRate.isBelowFloor(now)) {
            return false;
        }
        dropReason = "the client took response bytes too slowly: " + sendRate.describe(now);
        sendRate.stop();
        LOG.log(System.Logger.Level.INFO, () -> "HTTP connection from " + transport.getExtraInfo("peername")
                + " dropped: " + dropReason);
        abort();
        return true;
    }

    /** Graceful shutdown: an idle connection closes now, a busy one after its response. */
    void shutdown() {
        if (exchange == null && !state.awaitingResponse() && !parser.inMessage()) {
            closeGracefully();
        }
    }
}
