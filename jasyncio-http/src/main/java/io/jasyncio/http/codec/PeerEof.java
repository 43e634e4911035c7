package io.jasyncio.http.codec;

/** What a server connection does when the client closes its side (its EOF), decided without I/O by {@link #of}. */
public enum PeerEof {
    /** Closing already: the connection closes once the last response bytes are out (a lingering close ends). */
    CLOSE_AFTER_WRITES,
    /**
     * The client's last request is being answered and it closed its side: it has gone (as Go and
     * aiohttp take it). The connection closes, and the handler is cancelled.
     */
    CLIENT_GONE,
    /** Nothing is being answered or waits: the requests ended (a body cut short fails its exchange) and the connection closes. */
    END_OF_REQUESTS,
    /** Requests are being answered or wait to be parsed: the connection stays to answer them, then closes. */
    ANSWER_THE_REST;

    /**
     * {@code closing}: the connection is closing; {@code awaitingResponse}: a complete request's
     * response is owed; {@code inputHeld}: bytes wait unparsed; {@code cancelHandlers}: the server
     * cancels the handler of a client that has gone.
     */
    public static PeerEof of(boolean closing, boolean awaitingResponse, boolean inputHeld, boolean cancelHandlers) {
        if (closing) {
            return CLOSE_AFTER_WRITES;
        }
        if (awaitingResponse && !inputHeld && cancelHandlers) {
            return CLIENT_GONE;
        }
        if (!awaitingResponse && !inputHeld) {
            return END_OF_REQUESTS;
        }
        return ANSWER_THE_REST;
    }
}
