package io.jasyncio.http.client;

import io.jasyncio.http.HttpHead;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpLimits;
import io.jasyncio.http.HttpMessageListener;
import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpParser;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.HttpVersion;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.TimerHandle;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.Transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

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
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /** A body up to this size is written with its head, in one write. */
    private static final int COALESCE_BODY_BYTES = 16 * 1024;

    private final EventLoop loop;
    private final Origin origin;
    private final HttpClientOptions options;
    private final HttpParser parser;
    private Transport transport;
    private ConnectionPool pool;
    private boolean lost;
    /** Loop time this connection went idle in the pool (NaN while not idle). */
    private double idleSince = Double.NaN;
    /** The socket is paused because the body's reader is behind: silence is not the server's. */
    private boolean pausedForReader;
    /** Exchanges completed on this connection: more than 0 means a request goes on a reused connection. */
    private int completed;

    private boolean writingPaused;
    private Future<Void> drained;

    /** The exchange in flight, or null while the connection is idle. */
    private Exchange current;
    /** A byte of the last exchange's response arrived. */
    private boolean heardBack;

    /** One request and its response on this connection. */
    private static final class Exchange {
        final Future<HttpClientResponse> head;
        ResponseBody body;
        boolean reusable;
        boolean requestWritten;
        boolean responseEnded;
        /** A 1xx response is being skipped (its end is not the exchange's). */
        boolean interim;
        /** A final response head came while the request was still being written: the rest is not sent. */
        boolean answeredEarly;
        /** Waits, with Expect: 100-continue, for the 100, a final response, or the timeout. */
        Future<Void> continueWaiter;
        /** Loop times (NaN: none): the whole exchange's deadline, and the response head's. */
        double requestDeadline = Double.NaN;
        double requestTimeout = Double.NaN;
        double headDeadline = Double.NaN;
        /** Loop time a byte last came from the server (or the request was written), for the read-idle timeout. */
        double heardAt = Double.NaN;
        final String describe;

        Exchange(Future<HttpClientResponse> head, boolean requestAllowsReuse, String describe) {
            this.head = head;
            this.reusable = requestAllowsReuse;
            this.describe = describe;
        }

        void clearDeadlines() {
            requestDeadline = Double.NaN;
            headDeadline = Double.NaN;
            heardAt = Double.NaN;
        }
    }

    ClientConnection(EventLoop loop, Origin origin, HttpClientOptions options) {
        this.loop = loop;
        this.origin = origin;
        this.options = options;
        this.parser = HttpParser.forResponses(HttpLimits.defaults().withMaxHeaderBytes(options.maxResponseHeadBytes())
                .withMaxHeaderCount(options.maxResponseHeaderFields()).withMaxBodySize(-1), this);
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
        return !lost && current == null && transport != null && !transport.isClosing();
    }

    /** Whether this connection carried an exchange before (a stale keep-alive may fail the next one). */
    boolean reused() {
        return completed > 0;
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
        Exchange ex = current;
        if (ex == null) {
            return Double.POSITIVE_INFINITY;
        }
        if (ex.requestDeadline <= now) {
            fail(ex, new HttpTimeoutException(HttpTimeoutException.Phase.REQUEST, ex.describe + " took longer than "
                    + ex.requestTimeout + " s (requestTimeout)"));
            return Double.POSITIVE_INFINITY;
        }
        if (ex.headDeadline <= now && !ex.head.isDone()) {
            fail(ex, new HttpTimeoutException(HttpTimeoutException.Phase.RESPONSE_HEADERS, "no response head to "
                    + ex.describe + " within " + options.responseHeadersTimeout() + " s (responseHeadersTimeout)"));
            return Double.POSITIVE_INFINITY;
        }
        if (pausedForReader && !Double.isNaN(ex.heardAt)) {
            ex.heardAt = now; // the reader's pace, not the server's silence
        }
        double readIdle = options.readIdleTimeout();
        if (!Double.isNaN(readIdle) && ex.heardAt + readIdle <= now) {
            // No phase of its own in HttpTimeoutException: the whole exchange could not go on.
            fail(ex, new HttpTimeoutException(ex.head.isDone() ? HttpTimeoutException.Phase.REQUEST
                    : HttpTimeoutException.Phase.RESPONSE_HEADERS, "nothing came from " + origin + " for "
                    + readIdle + " s in the response to " + ex.describe + " (readIdleTimeout)"));
            return Double.POSITIVE_INFINITY;
        }
        double next = Double.POSITIVE_INFINITY;
        for (double due : new double[]{ex.requestDeadline, ex.head.isDone() ? Double.NaN : ex.headDeadline,
                ex.heardAt + readIdle}) {
            if (!Double.isNaN(due)) {
                next = Math.min(next, due);
            }
        }
        return next;
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
        Exchange ex = new Exchange(loop.createFuture(), !request.headers().containsToken("Connection", "close"),
                request.toString());
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
                writeRequest(ex, request);
            } catch (IOException | RuntimeException e) {
                if (!ex.answeredEarly) {
                    throw e;
                }
                // the server answered, then stopped taking the body (or closed): the answer stands,
                // and its body, if the connection is lost before its end, fails as it reads
            }
            ex.requestWritten = true;
            if (ex.responseEnded) {
                finish(ex);
            } else if (current == ex) {
                double now = loop.time();
                if (!ex.head.isDone() && !Double.isNaN(options.responseHeadersTimeout())) {
                    ex.headDeadline = now + options.responseHeadersTimeout();
                    watch(ex.headDeadline);
                }
                if (!Double.isNaN(options.readIdleTimeout())) {
                    ex.heardAt = now; // the read-idle timeout runs from the end of the request
                    watch(now + options.readIdleTimeout());
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
        return heardBack;
    }

    /** Coroutine: the head, then the body (coalesced with the head when small and known). */
    private void writeRequest(Exchange ex, HttpClientRequest request) throws IOException {
        RequestBody body = request.body();
        HttpHeaders headers = request.headers();
        long framing;
        if (body instanceof RequestBody.Empty) {
            // RFC 9110 8.6: a method that expects content says there is none
            framing = request.method().equals("POST") || request.method().equals("PUT") ? 0 : HttpHead.UNFRAMED;
        } else {
            framing = body.length() >= 0 ? body.length() : HttpHead.CHUNKED;
        }
        boolean chunked = framing == HttpHead.CHUNKED;
        byte[] head = HttpHead.request(request.method(), request.target(), headers.contains("Host") ? null : origin.hostHeader(),
                headers, framing);
        byte[] headBytes = Arrays.copyOf(head, head.length + 2);
        headBytes[head.length] = '\r';
        headBytes[head.length + 1] = '\n';
        if (!(body instanceof RequestBody.Empty) && headers.containsToken("Expect", "100-continue")) {
            transport.write(headBytes);
            awaitContinue(ex);
            if (ex.answeredEarly) {
                return; // a final response instead of the 100: the body is not sent
            }
            headBytes = new byte[0];
        }
        if (body instanceof RequestBody.Bytes small && small.length() <= COALESCE_BODY_BYTES) {
            byte[] both = new byte[headBytes.length + small.bytes().length];
            System.arraycopy(headBytes, 0, both, 0, headBytes.length);
            System.arraycopy(small.bytes(), 0, both, headBytes.length, small.bytes().length);
            transport.write(both);
            awaitDrained();
            return;
        }
        if (headBytes.length > 0) {
            transport.write(headBytes);
        }
        if (body instanceof RequestBody.Empty) {
            return;
        }
        RequestBodyWriter writer = new RequestBodyWriter(chunked, body.length());
        try {
            body.writeTo(writer);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("the request body failed: " + e, e);
        }
        if (ex.answeredEarly) {
            return;
        }
        if (!chunked && writer.written != body.length()) {
            throw new IOException("the request body wrote " + writer.written + " of its declared " + body.length() + " bytes");
        }
        if (chunked) {
            transport.write(LAST_CHUNK);
        }
        awaitDrained();
    }

    /** Coroutine: waits for the 100 (Continue), a final response (then no body is sent) or the timeout. */
    private void awaitContinue(Exchange ex) throws IOException {
        awaitDrained();
        if (ex.head.isDone()) {
            return;
        }
        Future<Void> waiter = loop.createFuture();
        ex.continueWaiter = waiter;
        TimerHandle timeout = loop.callLater(options.expectContinueTimeout(), () -> wakeContinueWaiter(ex));
        try {
            await(waiter);
        } finally {
            timeout.cancel();
            ex.continueWaiter = null;
        }
        if (lost) {
            throw new IOException("the connection to " + origin + " closed while waiting for 100 (Continue)");
        }
    }

    private static void wakeContinueWaiter(Exchange ex) {
        Future<Void> w = ex.continueWaiter;
        if (w != null && !w.isDone()) {
            w.setResult(null);
        }
    }

    /** Where a streaming body writes: framing each write as a chunk when chunked, counting otherwise. */
    final class RequestBodyWriter implements BodyWriter {
        final boolean chunked;
        final long declared;
        long written;

        RequestBodyWriter(boolean chunked, long declared) {
            this.chunked = chunked;
            this.declared = declared;
        }

        @Override
        public void write(ByteBuffer data) throws IOException {
            int n = data.remaining();
            if (current != null && current.answeredEarly) {
                data.position(data.limit());
                throw new IOException("the server answered before the request body was sent: the rest is not sent");
            }
            if (lost || transport.isClosing()) {
                throw new IOException("the connection to " + origin + " closed while the request body was written");
            }
            if (n == 0) {
                return; // an empty chunk would end a chunked body
            }
            if (!chunked && written + n > declared) {
                throw new IOException("the request body is longer than its declared " + declared + " bytes");
            }
            written += n;
            if (chunked) {
                transport.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                transport.write(data);
                transport.write(CRLF);
            } else {
                transport.write(data);
            }
            awaitDrained();
        }

        /** Bytes written and not yet handed to the socket. */
        long unsentBytes() {
            return transport.getWriteBufferSize();
        }

        /** Whether the transport asked to pause writing (its buffer is above the high-water mark). */
        boolean writingPaused() {
            return writingPaused;
        }
    }

    /** Coroutine: returns once the write buffer is at or below its low-water mark (at once if it never rose). */
    private void awaitDrained() throws IOException {
        while (writingPaused && !lost && (current == null || !current.answeredEarly)) {
            Future<Void> d = loop.createFuture();
            drained = d;
            await(d);
        }
        if (lost) {
            throw new IOException("the connection to " + origin + " closed while the request was written");
        }
    }

    /** The exchange ended on both sides: the connection goes back to the pool (or is closed). */
    private void finish(Exchange ex) {
        if (current != ex) {
            return;
        }
        current = null;
        completed++;
        ex.clearDeadlines();
        if (ex.answeredEarly && transport != null) {
            transport.abort(); // what is left of the body may never be taken: nothing to wait for
        }
        boolean reusable = ex.reusable && !lost && !ex.answeredEarly;
        if (pool != null) {
            pool.release(this, reusable);
        } else if (!reusable) {
            close();
        }
    }

    /** Ends {@code ex} with {@code error} (its head or its body sees it) and aborts the connection. */
    private void fail(Exchange ex, Throwable error) {
        ex.clearDeadlines();
        wakeContinueWaiter(ex);
        if (!ex.head.isDone()) {
            ex.head.setException(error);
        } else if (ex.body != null) {
            ex.body.fail(error);
        }
        if (current == ex) {
            current = null;
            if (transport != null) {
                transport.abort();
            }
        }
    }

    // ---- the transport's events ---------------------------------------------------------------

    @Override
    public void connectionMade(Transport transport) {
        this.transport = transport;
    }

    @Override
    public void dataReceived(ByteBuffer data) {
        Exchange ex = current;
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
        Exchange ex = current;
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
        leaveIdle();
        Exchange ex = current;
        if (ex != null) {
            IOException error = new IOException(exc == null
                    ? "the server closed the connection before the response ended"
                    : "the connection to " + origin + " failed: " + exc, exc);
            fail(ex, error);
        }
        wakeWriter();
        if (pool != null) {
            pool.gone(this);
        }
    }

    @Override
    public void pauseWriting() {
        writingPaused = true;
    }

    @Override
    public void resumeWriting() {
        writingPaused = false;
        wakeWriter();
    }

    private void wakeWriter() {
        Future<Void> d = drained;
        if (d != null) {
            drained = null;
            if (!d.isDone()) {
                d.setResult(null);
            }
        }
    }

    // ---- the parser's events ------------------------------------------------------------------

    @Override
    public boolean onResponseHead(HttpResponse head) throws HttpParseException {
        Exchange ex = current;
        if (ex == null) {
            throw new HttpParseException(400, "a response without a request");
        }
        int status = head.status();
        if (status >= 100 && status < 200) {
            if (status == 101) {
                throw new HttpParseException(400, "101 Switching Protocols: this client does not upgrade");
            }
            ex.interim = true; // 100 Continue, 103 Early Hints...: the real response follows
            if (status == 100) {
                wakeContinueWaiter(ex);
            }
            return true;
        }
        if (!ex.requestWritten) {
            ex.answeredEarly = true; // RFC 9112 §9.5: stop sending; the connection is not reused
            ex.reusable = false;
            wakeContinueWaiter(ex);
            wakeWriter();
        }
        ex.headDeadline = Double.NaN;
        if (!keepsAlive(head) || parser.readsUntilClose()) { // RFC 9112 6.3: a body ended by the close
            ex.reusable = false;
        }
        ex.body = new ResponseBody(loop, this, options.bodyBufferBytes());
        ex.head.setResult(new HttpClientResponse(head, ex.body));
        return true;
    }

    @Override
    public boolean onBody(ByteBuffer chunk) {
        Exchange ex = current;
        if (ex != null && ex.body != null) {
            ex.body.append(chunk);
        } else {
            chunk.position(chunk.limit());
        }
        return true;
    }

    @Override
    public boolean onMessageComplete(HttpHeaders trailers) {
        Exchange ex = current;
        if (ex == null) {
            return true;
        }
        if (ex.interim) {
            ex.interim = false;
            return true;
        }
        ex.responseEnded = true;
        ex.heardAt = Double.NaN; // the response is all here: nothing more to wait for from the server
        ex.body.end(trailers);
        if (ex.requestWritten) {
            finish(ex);
        }
        return true;
    }

    /** RFC 9112 9.3: HTTP/1.1 stays open unless "close"; HTTP/1.0 only with "keep-alive". */
    private static boolean keepsAlive(HttpResponse head) {
        HttpHeaders h = head.headers();
        if (h.containsToken("Connection", "close")) {
            return false;
        }
        return head.version() == HttpVersion.HTTP_1_1 || h.containsToken("Connection", "keep-alive");
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
            Exchange ex = current;
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
        Exchange ex = current;
        if (ex != null) {
            fail(ex, new IOException("the response body was closed before its end"));
        }
    }
}
