package io.jasyncio.http.codec;

import io.jasyncio.http.HttpHead;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpResponse;

/**
 * The decisions of one client-side HTTP/1.1 connection, without I/O (after h11's
 * {@code ConnectionState}, from the client's seat): each side's state in the current
 * request/response cycle, how the request is framed, whether to wait for 100 (Continue), what a
 * response head means (an interim one, the final one, a switch to another protocol), whether the
 * rest of the request is still sent, and whether the connection can carry another request. The
 * caller tells it what happened and does the I/O; a call that the protocol forbids throws
 * {@link IllegalStateException} (our mistake) or {@link HttpParseException} (the server's) and
 * changes nothing.
 *
 * <p>A cycle: {@link #startRequest} (ours to {@code SEND_BODY}, theirs to {@code SEND_RESPONSE}),
 * {@link #requestSent} once the request is all written; {@link #responseHead} for each head the
 * parser reads (1xx ones are skipped), {@link #responseEnded} for each end; then
 * {@link #startNextCycle}, which says whether the connection goes back to the pool. One request
 * at a time: no pipelining.
 */
public final class ClientConnectionState {
    /** Our side: the client's. */
    public enum Ours {
        /** No request in this cycle yet. */
        IDLE,
        /** A request is being sent: its head is written, its body (if any) and the drain are to come. */
        SEND_BODY,
        /** The request is sent and the connection may carry another. */
        DONE,
        /** The request is sent; the connection closes after this cycle. */
        MUST_CLOSE,
        /** The server switched to another protocol (101, or a tunnel for CONNECT): no more HTTP. */
        SWITCHED,
        /** The connection closed or was aborted. */
        CLOSED
    }

    /** Their side: the server's. */
    public enum Theirs {
        /** No request to answer. */
        IDLE,
        /** A request is out: its final response head has not come (1xx ones may have). */
        SEND_RESPONSE,
        /** The final response head came; its body has not ended. */
        SEND_BODY,
        /** The response is complete and the connection may carry another. */
        DONE,
        /** The response is complete; the connection closes after this cycle. */
        MUST_CLOSE,
        /** The server switched to another protocol: no more HTTP. */
        SWITCHED,
        /** The connection closed or was aborted. */
        CLOSED
    }

    /** What a response head is, as {@link #responseHead} tells. */
    public enum Response {
        /** A 1xx other than 100 and 101 (103 Early Hints, say): skipped, the real response follows. */
        INTERIM,
        /** 100 (Continue): a request waiting for it sends its body now. */
        CONTINUE,
        /** The final response: its body follows (or it has none). */
        FINAL,
        /** 101 to an {@code Upgrade}, or a 2xx to CONNECT: the bytes after its head are another protocol's. */
        SWITCHED
    }

    private Ours ours = Ours.IDLE;
    private Theirs theirs = Theirs.IDLE;
    /** Cycles begun again on this connection: above 0, a request goes on a reused connection. */
    private int cycle;
    /** Whether the connection may carry another cycle; once false, it stays false. */
    private boolean keepAlive = true;

    // the current request
    private boolean connect;
    private boolean upgradeRequested;
    private boolean expectsContinue;
    private OutgoingBody requestBody;

    // the current response
    private boolean heardContinue;
    /** An interim (1xx) response is being read: its end is not the cycle's. */
    private boolean interim;
    /** The final response came before the request was all sent (RFC 9112 §9.5). */
    private boolean answeredEarly;

    public Ours ours() {
        return ours;
    }

    public Theirs theirs() {
        return theirs;
    }

    /** The current cycle's number (it grows with {@link #startNextCycle}). */
    public int cycle() {
        return cycle;
    }

    /** Whether a request may be started: the connection is open, and no cycle is under way or ending. */
    public boolean idle() {
        return ours == Ours.IDLE && theirs == Theirs.IDLE;
    }

    /** Whether the connection is still kept after this cycle (no side said close, nothing broke). */
    public boolean keepAlive() {
        return keepAlive;
    }

    // ---- our request ---------------------------------------------------------------------------

    /**
     * Begins a request of {@code method} with {@code headers}; {@code hasBody}: a body follows,
     * of {@code bodyLength} bytes or -1 when unknown (then chunked). Returns the framing its
     * head states: a Content-Length, {@link HttpHead#CHUNKED}, or {@link HttpHead#UNFRAMED} (no
     * body; POST and PUT say {@code Content-Length: 0}, RFC 9110 §8.6). {@code Connection: close}
     * in {@code headers} closes the connection after the response.
     */
    public long startRequest(String method, HttpHeaders headers, boolean hasBody, long bodyLength) {
        if (!idle()) {
            throw new IllegalStateException("a request while " + ours + "/" + theirs + ": one request at a time");
        }
        if (hasBody && bodyLength < -1) {
            throw new IllegalArgumentException("a body of " + bodyLength + " bytes");
        }
        connect = method.equals("CONNECT");
        upgradeRequested = headers.contains("Upgrade");
        expectsContinue = hasBody && headers.containsToken("Expect", "100-continue");
        if (headers.containsToken("Connection", "close")) {
            keepAlive = false;
        }
        long framing;
        if (!hasBody) {
            requestBody = OutgoingBody.none();
            framing = method.equals("POST") || method.equals("PUT") ? 0 : HttpHead.UNFRAMED;
        } else if (bodyLength >= 0) {
            requestBody = OutgoingBody.ofLength(bodyLength);
            framing = bodyLength;
        } else {
            requestBody = OutgoingBody.chunked();
            framing = HttpHead.CHUNKED;
        }
        ours = Ours.SEND_BODY;
        theirs = Theirs.SEND_RESPONSE;
        return framing;
    }

    /** The framing of the current request's body (none without a body), or null before a request. */
    public OutgoingBody requestBody() {
        return requestBody;
    }

    /**
     * Whether the request's body waits for 100 (Continue) now: it asked ({@code Expect:
     * 100-continue}), and neither the 100 nor a final response came (RFC 9110 §10.1.1). A
     * client that waited long enough sends the body all the same.
     */
    public boolean awaitingContinue() {
        return expectsContinue && !heardContinue && ours == Ours.SEND_BODY && theirs == Theirs.SEND_RESPONSE;
    }

    /**
     * Whether the rest of the request's body is still to be sent: not once the final response
     * came first (the server did not wait for it), nor once the connection broke.
     */
    public boolean sendingBody() {
        return ours == Ours.SEND_BODY && !answeredEarly;
    }

    /**
     * Whether the final response came before the request was all sent: what is left of the body
     * is not sent (RFC 9112 §9.5), and at the cycle's end the connection is aborted, as the server
     * may never read what was sent.
     */
    public boolean answeredEarly() {
        return answeredEarly;
    }

    /** The request is all written (its body ended, or it stopped because it was answered early). */
    public void requestSent() {
        if (ours != Ours.SEND_BODY) {
            throw new IllegalStateException("a request sent while " + ours);
        }
        ours = Ours.DONE;
        settle();
    }

    // ---- their response ------------------------------------------------------------------------

    /**
     * A response head was parsed; {@code bodyUntilClose}: the parser reads its body until the
     * connection closes (no framing, RFC 9112 §6.3). Says what it is. A final response to a
     * request still being sent ends the sending; one that does not keep the connection alive
     * (HTTP/1.0 without {@code keep-alive}, {@code Connection: close}, a body ended by the close)
     * closes the connection after the cycle.
     *
     * @throws HttpParseException no request awaits a response (400), or a 101 to a request that
     *                            asked for no {@code Upgrade} (400)
     */
    public Response responseHead(HttpResponse head, boolean bodyUntilClose) throws HttpParseException {
        if (theirs != Theirs.SEND_RESPONSE) {
            throw new HttpParseException(400, "a response without a request");
        }
        int status = head.status();
        if (ConnectionRules.switchesProtocols(connect, upgradeRequested, status)) {
            ours = Ours.SWITCHED;
            theirs = Theirs.SWITCHED;
            keepAlive = false;
            return Response.SWITCHED;
        }
        if (status < 200) {
            if (status == 101) {
                throw new HttpParseException(400, "101 Switching Protocols to a request without Upgrade");
            }
            interim = true; // its end is not the response's
            if (status == 100) {
                heardContinue = true;
                return Response.CONTINUE;
            }
            return Response.INTERIM;
        }
        if (ours == Ours.SEND_BODY) {
            answeredEarly = true;
            keepAlive = false;
        }
        if (bodyUntilClose || !ConnectionRules.keepsAlive(head.version(), head.headers())) {
            keepAlive = false;
        }
        theirs = Theirs.SEND_BODY;
        settle();
        return Response.FINAL;
    }

    /**
     * A response ended (the parser's message-complete). Returns whether it was the final one
     * (false: an interim response ended, the final one is still to come).
     */
    public boolean responseEnded() {
        if (theirs == Theirs.SEND_RESPONSE && interim) {
            interim = false;
            return false;
        }
        if (theirs != Theirs.SEND_BODY) {
            throw new IllegalStateException("a response ended while " + theirs);
        }
        theirs = Theirs.DONE;
        settle();
        return true;
    }

    // ---- the cycle -----------------------------------------------------------------------------

    /** Whether both sides are done with this cycle: the request sent, the response ended. */
    public boolean cycleDone() {
        return (ours == Ours.DONE || ours == Ours.MUST_CLOSE) && (theirs == Theirs.DONE || theirs == Theirs.MUST_CLOSE);
    }

    /**
     * Begins the next cycle if both sides are done and the connection is kept; returns whether it
     * did: then the connection may go back to the pool; else it must close.
     */
    public boolean startNextCycle() {
        if (ours != Ours.DONE || theirs != Theirs.DONE) {
            return false;
        }
        ours = Ours.IDLE;
        theirs = Theirs.IDLE;
        cycle++;
        connect = false;
        upgradeRequested = false;
        expectsContinue = false;
        requestBody = null;
        heardContinue = false;
        interim = false;
        answeredEarly = false;
        return true;
    }

    /** The connection closed, or the cycle failed and the connection is aborted: no more HTTP on it. */
    public void closed() {
        ours = Ours.CLOSED;
        theirs = Theirs.CLOSED;
        keepAlive = false;
    }

    /** A side that is done must close once the connection is not kept (h11's state-triggered transition). */
    private void settle() {
        if (keepAlive) {
            return;
        }
        if (ours == Ours.DONE) {
            ours = Ours.MUST_CLOSE;
        }
        if (theirs == Theirs.DONE) {
            theirs = Theirs.MUST_CLOSE;
        }
    }
}
