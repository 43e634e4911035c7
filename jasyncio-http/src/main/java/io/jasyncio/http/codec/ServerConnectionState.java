package io.jasyncio.http.codec;

import io.jasyncio.http.HttpHead;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.HttpStatus;
import io.jasyncio.http.HttpVersion;

/**
 * The decisions of one server-side HTTP/1.1 connection, without I/O (after h11's
 * {@code ConnectionState}): each side's state in the current request/response cycle, whether the
 * connection is kept after it, when 100 (Continue) is due, how a response is framed, and what may
 * be sent next. The caller tells it what happened and does the I/O; a call that the protocol
 * forbids (a second response, a body after the end) throws {@link IllegalStateException} and
 * changes nothing.
 *
 * <p>A cycle: {@link #requestHead} (the client's side goes to {@code SEND_BODY} or {@code DONE},
 * ours to {@code SEND_RESPONSE}), {@link #requestEnded}, {@link #startResponse} then
 * {@link #checkSendingBody} per piece and {@link #endResponse} (ours to {@code DONE}, or
 * {@code MUST_CLOSE}), and
 * {@link #startNextCycle} once both sides are done. Requests are answered in order: the next head
 * is accepted only in a new cycle, so a pipelined request surfaces after the response before it.
 * The body's own framing and count (Content-Length, chunks) are {@link OutgoingBody}'s.
 */
public final class ServerConnectionState {
    /** Our side: the server's. */
    public enum Ours {
        /** Waiting for a request. */
        IDLE,
        /** A request arrived: its response is owed (begun or not, see {@link #responseStarted}). */
        SEND_RESPONSE,
        /** The response is complete and the connection may carry another. */
        DONE,
        /** No more responses: the connection closes once what is written is sent. */
        MUST_CLOSE,
        /** The connection was handed to another protocol (Upgrade, CONNECT): no more HTTP. */
        SWITCHED
    }

    /** Their side: the client's. */
    public enum Theirs {
        /** No request in this cycle yet. */
        IDLE,
        /** The request head arrived; its body has not ended. */
        SEND_BODY,
        /** The request is complete. */
        DONE
    }

    /** What {@link #endResponse} asks the caller to do. */
    public enum Ending {
        /** The response had ended already: nothing. */
        ALREADY_ENDED,
        /** The response is complete. */
        COMPLETE,
        /** The body is shorter than its Content-Length: abort the connection, so the client sees it fail. */
        ABORT
    }

    private Ours ours = Ours.IDLE;
    private Theirs theirs = Theirs.IDLE;
    /** Counts cycles, so a party holding one (an exchange) can tell that the connection moved on. */
    private int cycle;

    // the current request
    private boolean requestKeepAlive;
    private boolean http11;
    private boolean isHead;
    private boolean isConnect;
    private boolean hasUpgrade;
    private boolean expectsContinue;
    private boolean continueSent;

    // the current response
    private boolean responseStarted;
    private ResponseFraming framing;
    private int status;
    private boolean closeAfter;

    public Ours ours() {
        return ours;
    }

    public Theirs theirs() {
        return theirs;
    }

    /** The current cycle's number (it changes with {@link #startNextCycle}). */
    public int cycle() {
        return cycle;
    }

    /** Whether the response of this cycle has begun (then a failure can only abort the connection). */
    public boolean responseStarted() {
        return responseStarted;
    }

    /** Whether the response of this cycle has begun and not ended: body bytes may be sent. */
    public boolean sendingBody() {
        return ours == Ours.SEND_RESPONSE && responseStarted;
    }

    /**
     * Whether the request is complete and its response owed: what the client sent after it waits
     * unparsed (requests are answered in order).
     */
    public boolean awaitingResponse() {
        return theirs == Theirs.DONE && ours == Ours.SEND_RESPONSE;
    }

    /** The framing of the response begun in this cycle, or null. */
    public ResponseFraming framing() {
        return framing;
    }

    // ---- the client's events -------------------------------------------------------------------

    /**
     * A request head was parsed; {@code hasBody}: a body follows (chunked, or a Content-Length
     * above zero). Only in an idle cycle: a request after one not yet answered waits unparsed.
     * Refuses (417, changing nothing) an HTTP/1.1 expectation other than 100-continue.
     */
    public void requestHead(HttpRequest request, boolean hasBody) throws HttpParseException {
        if (ours != Ours.IDLE || theirs != Theirs.IDLE) {
            throw new IllegalStateException("a request head while " + ours + "/" + theirs
                    + ": the previous response must be done first");
        }
        // one scan for Expect: on HTTP/1.1, anything but 100-continue is refused (HttpRequest.expectsContinue's rule)
        String expect = request.version() == HttpVersion.HTTP_1_1 ? request.header("Expect") : null;
        if (expect != null && !expect.equalsIgnoreCase("100-continue")) {
            throw new HttpParseException(417, "only the 100-continue expectation is met (RFC 9110 §10.1.1)");
        }
        theirs = hasBody ? Theirs.SEND_BODY : Theirs.DONE;
        ours = Ours.SEND_RESPONSE;
        requestKeepAlive = ConnectionRules.keepsAlive(request.version(), request.headers());
        http11 = request.version() == HttpVersion.HTTP_1_1;
        isHead = request.method().equals("HEAD");
        isConnect = request.method().equals("CONNECT");
        hasUpgrade = request.header("Upgrade") != null;
        expectsContinue = expect != null;
    }

    /** The request's body ended (a request without one ended with its head). */
    public void requestEnded() {
        if (theirs == Theirs.IDLE) {
            throw new IllegalStateException("a request ended before its head");
        }
        theirs = Theirs.DONE;
    }

    /**
     * Whether a 100 (Continue) is due now: the client asked for it, its body has not begun to be
     * needed yet, it was not sent, and no response began (no interim response after a final one).
     */
    public boolean continueDue() {
        return expectsContinue && !continueSent && theirs == Theirs.SEND_BODY && ours == Ours.SEND_RESPONSE
                && !responseStarted;
    }

    /** The 100 (Continue) was sent. */
    public void continueSent() {
        if (!continueDue()) {
            throw new IllegalStateException("100 (Continue) is not due");
        }
        continueSent = true;
    }

    // ---- the handler's events ------------------------------------------------------------------

    /**
     * Begins the response: {@code contentLength} bytes, or -1 when unknown (then chunked for
     * HTTP/1.1, ended by closing for HTTP/1.0). {@code headers} are the handler's (a
     * {@code Connection: close} there closes the connection after the response);
     * {@code noMoreRequests}: the connection will not carry another (the server shuts down, the
     * client closed its side).
     */
    public ResponseFraming startResponse(int status, HttpHeaders headers, long contentLength, boolean noMoreRequests) {
        if (ours != Ours.SEND_RESPONSE || responseStarted) {
            throw new IllegalStateException("a response was already begun");
        }
        boolean forbidden = HttpStatus.forbidsBody(status);
        ResponseFraming.Kind kind;
        long headFraming;
        if (forbidden) {
            kind = ResponseFraming.Kind.NONE;
            headFraming = HttpHead.UNFRAMED;
        } else if (contentLength >= 0) {
            kind = ResponseFraming.Kind.LENGTH;
            headFraming = contentLength;
        } else if (http11) {
            kind = ResponseFraming.Kind.CHUNKED; // a HEAD response says so too, with no body
            headFraming = HttpHead.CHUNKED;
        } else {
            kind = ResponseFraming.Kind.CLOSE_DELIMITED; // HTTP/1.0 has no chunked coding (RFC 9112 §7)
            headFraming = HttpHead.UNFRAMED;
        }
        boolean saysClose = headers.containsToken("Connection", "close");
        // a CONNECT not answered by a tunnel: what the client sent after it may be tunnel bytes
        closeAfter = kind == ResponseFraming.Kind.CLOSE_DELIMITED || !requestKeepAlive || noMoreRequests
                || isConnect || saysClose;
        ResponseFraming.ConnectionField field = closeAfter
                ? (saysClose ? ResponseFraming.ConnectionField.NONE : ResponseFraming.ConnectionField.CLOSE)
                : http11 ? ResponseFraming.ConnectionField.NONE : ResponseFraming.ConnectionField.KEEP_ALIVE;
        responseStarted = true;
        this.status = status;
        framing = new ResponseFraming(kind, headFraming, !isHead && !forbidden, field);
        return framing;
    }

    /**
     * Checks that {@code n} body bytes may be sent now: the response began and has not ended, and
     * its status allows a body (a HEAD response's bytes are dropped by its {@link OutgoingBody},
     * not refused).
     */
    public void checkSendingBody(long n) {
        if (!sendingBody()) {
            throw new IllegalStateException(responseStarted ? "the response has ended" : "startResponse first");
        }
        if (n > 0 && framing.kind() == ResponseFraming.Kind.NONE && !isHead) {
            throw new IllegalStateException("a " + status + " response has no body: writing " + n + " bytes");
        }
    }

    /**
     * Ends the response; {@code shortOfLength}: its body ended short of its Content-Length
     * ({@link OutgoingBody.Ending#SHORT}), and the connection must be aborted so the client sees it fail.
     */
    public Ending endResponse(boolean shortOfLength) {
        if (ours == Ours.SEND_RESPONSE && !responseStarted) {
            throw new IllegalStateException("startResponse first (or respond)");
        }
        if (ours != Ours.SEND_RESPONSE) {
            return Ending.ALREADY_ENDED;
        }
        if (shortOfLength) {
            ours = Ours.MUST_CLOSE;
            return Ending.ABORT;
        }
        // a request body not read to its end: the client may be sending it still, so no next request
        ours = closeAfter || theirs != Theirs.DONE ? Ours.MUST_CLOSE : Ours.DONE;
        return Ending.COMPLETE;
    }

    /**
     * The handler takes the connection over with {@code status}: 101 to a request with
     * {@code Upgrade}, or a 2xx to CONNECT (a tunnel). The request must be complete. Returns
     * whether it is a tunnel.
     */
    public boolean takeOver(int status) {
        if (ours != Ours.SEND_RESPONSE || responseStarted) {
            throw new IllegalStateException("a response was already begun");
        }
        if (!ConnectionRules.switchesProtocols(isConnect, hasUpgrade, status)) {
            throw new IllegalArgumentException(isConnect ? "a tunnel opens with a 2xx, not " + status
                    : "only a request with Upgrade can be answered 101 and taken over (status " + status + ")");
        }
        if (theirs != Theirs.DONE) {
            throw new IllegalStateException("the request body must be read to its end before the connection is taken over");
        }
        responseStarted = true;
        ours = Ours.SWITCHED;
        return isConnect;
    }

    // ---- the connection's events ---------------------------------------------------------------

    /**
     * The request cannot be answered normally (malformed, over a limit, timed out, the client
     * gone): no more responses. Returns whether a refusal may still be written (no response
     * began); else the connection must be aborted.
     */
    public boolean refuse() {
        boolean mayAnswer = !responseStarted && ours != Ours.SWITCHED;
        if (ours != Ours.SWITCHED) {
            ours = Ours.MUST_CLOSE;
        }
        responseStarted = true; // the refusal, or the abort, is this cycle's response
        return mayAnswer;
    }

    /**
     * Begins the next cycle if both sides are done and the connection is kept; returns whether it
     * did (else the connection closes, or the cycle is not over).
     */
    public boolean startNextCycle() {
        if (ours != Ours.DONE || theirs != Theirs.DONE) {
            return false;
        }
        ours = Ours.IDLE;
        theirs = Theirs.IDLE;
        cycle++;
        continueSent = false;
        responseStarted = false;
        framing = null;
        closeAfter = false;
        return true;
    }
}
