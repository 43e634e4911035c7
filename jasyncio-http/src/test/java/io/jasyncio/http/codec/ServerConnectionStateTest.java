package io.jasyncio.http.codec;

import io.jasyncio.http.HttpHead;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.HttpVersion;
import io.jasyncio.http.codec.ResponseFraming.ConnectionField;
import io.jasyncio.http.codec.ResponseFraming.Kind;
import io.jasyncio.http.codec.ServerConnectionState.Ending;
import io.jasyncio.http.codec.ServerConnectionState.Ours;
import io.jasyncio.http.codec.ServerConnectionState.Theirs;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The server connection's state machine, driven without a socket or a loop. */
class ServerConnectionStateTest {
    private static final HttpHeaders NONE = HttpHeaders.empty();
    /** Where a test's body bytes go: nowhere (the framing is OutgoingBodyTest's). */
    private static final OutgoingBody.Sink SINK = new OutgoingBody.Sink() {
        @Override
        public void put(byte[] bytes) {
        }

        @Override
        public void put(java.nio.ByteBuffer bytes) {
            bytes.position(bytes.limit());
        }
    };

    private static HttpRequest request(String method, HttpVersion version, String... headers) {
        return new HttpRequest(method, "/", version, HttpHeaders.of(headers), new byte[0]);
    }

    private static HttpRequest get(String... headers) {
        return request("GET", HttpVersion.HTTP_1_1, headers);
    }

    private static ServerConnectionState afterHead(HttpRequest request, boolean hasBody) {
        ServerConnectionState state = new ServerConnectionState();
        try {
            state.requestHead(request, hasBody);
        } catch (HttpParseException e) {
            throw new AssertionError(e);
        }
        return state;
    }

    // ---- the states of a cycle -----------------------------------------------------------------

    @Test
    void aKeptAliveCycleReturnsBothSidesToIdle() throws Exception {
        ServerConnectionState state = new ServerConnectionState();
        assertEquals(Ours.IDLE, state.ours());
        assertEquals(Theirs.IDLE, state.theirs());
        state.requestHead(get(), false);
        assertEquals(Ours.SEND_RESPONSE, state.ours());
        assertEquals(Theirs.DONE, state.theirs());
        assertFalse(state.responseStarted());
        state.startResponse(200, NONE, 2, false);
        assertTrue(state.sendingBody());
        state.checkSendingBody(2);
        assertEquals(Ending.COMPLETE, state.endResponse(false));
        assertEquals(Ours.DONE, state.ours());
        int cycle = state.cycle();
        assertTrue(state.startNextCycle());
        assertEquals(cycle + 1, state.cycle());
        assertEquals(Ours.IDLE, state.ours());
        assertEquals(Theirs.IDLE, state.theirs());
        assertFalse(state.responseStarted());
        assertNull(state.framing());
    }

    @Test
    void aRequestWithABodyIsDoneWhenItsBodyEnds() throws Exception {
        ServerConnectionState state = afterHead(request("POST", HttpVersion.HTTP_1_1), true);
        assertEquals(Theirs.SEND_BODY, state.theirs());
        state.requestEnded();
        assertEquals(Theirs.DONE, state.theirs());
    }

    @Test
    void aRequestCannotEndBeforeItsHead() throws Exception {
        assertThrows(IllegalStateException.class, () -> new ServerConnectionState().requestEnded());
    }

    @Test
    void aPipelinedRequestSurfacesOnlyAfterTheResponseBeforeIt() throws Exception {
        ServerConnectionState state = afterHead(get(), false);
        assertThrows(IllegalStateException.class, () -> state.requestHead(get(), false));
        state.startResponse(200, NONE, 0, false);
        assertThrows(IllegalStateException.class, () -> state.requestHead(get(), false));
        state.endResponse(false);
        assertThrows(IllegalStateException.class, () -> state.requestHead(get(), false), "not before the next cycle");
        assertTrue(state.startNextCycle());
        state.requestHead(get(), false);
        assertEquals(Ours.SEND_RESPONSE, state.ours());
    }

    @Test
    void theRestWaitsWhileACompleteRequestIsAnswered() throws Exception {
        ServerConnectionState state = new ServerConnectionState();
        assertFalse(state.awaitingResponse(), "idle: parse on");
        state.requestHead(request("POST", HttpVersion.HTTP_1_1), true);
        assertFalse(state.awaitingResponse(), "the body is still to be parsed");
        state.requestEnded();
        assertTrue(state.awaitingResponse());
        state.startResponse(200, NONE, -1, false);
        assertTrue(state.awaitingResponse(), "begun is not done");
        state.endResponse(false);
        assertFalse(state.awaitingResponse());
        assertTrue(state.startNextCycle());
        assertFalse(state.awaitingResponse());
    }

    @Test
    void nothingIsAwaitedOnceRefused() throws Exception {
        ServerConnectionState state = afterHead(get(), false);
        assertTrue(state.awaitingResponse());
        state.refuse();
        assertFalse(state.awaitingResponse());
    }

    @Test
    void anUnmetExpectationIsRefusedWith417AndChangesNothing() throws Exception {
        ServerConnectionState state = new ServerConnectionState();
        HttpParseException e = assertThrows(HttpParseException.class,
                () -> state.requestHead(request("POST", HttpVersion.HTTP_1_1, "Expect", "teapot"), true));
        assertEquals(417, e.status());
        assertEquals(Ours.IDLE, state.ours());
        assertEquals(Theirs.IDLE, state.theirs());
        state.requestHead(request("POST", HttpVersion.HTTP_1_0, "Expect", "teapot"), true); // HTTP/1.0 ignores it
        assertEquals(Theirs.SEND_BODY, state.theirs());
    }

    @Test
    void theNextCycleWaitsForBothSides() throws Exception {
        ServerConnectionState state = new ServerConnectionState();
        assertFalse(state.startNextCycle(), "idle: no cycle to end");
        state.requestHead(get(), false);
        assertFalse(state.startNextCycle(), "the response is owed");
    }

    // ---- keep-alive and close ------------------------------------------------------------------

    private static Ours oursAfterResponse(HttpRequest request, HttpHeaders responseHeaders, boolean noMoreRequests) {
        ServerConnectionState state = afterHead(request, false);
        state.startResponse(200, responseHeaders, 0, noMoreRequests);
        state.endResponse(false);
        return state.ours();
    }

    @Test
    void http11KeepsTheConnectionByDefault() throws Exception {
        assertEquals(Ours.DONE, oursAfterResponse(get(), NONE, false));
    }

    @Test
    void connectionCloseInTheRequestClosesIt() throws Exception {
        assertEquals(Ours.MUST_CLOSE, oursAfterResponse(get("Connection", "close"), NONE, false));
    }

    @Test
    void connectionCloseInTheResponseClosesIt() throws Exception {
        ServerConnectionState state = afterHead(get(), false);
        ResponseFraming framing = state.startResponse(200, HttpHeaders.of("Connection", "close"), 0, false);
        assertEquals(ConnectionField.NONE, framing.connectionField(), "the handler's field says it already");
        state.endResponse(false);
        assertEquals(Ours.MUST_CLOSE, state.ours());
        assertFalse(state.startNextCycle());
    }

    @Test
    void http10ClosesUnlessItAsksForKeepAlive() throws Exception {
        assertEquals(Ours.MUST_CLOSE, oursAfterResponse(request("GET", HttpVersion.HTTP_1_0), NONE, false));
        ServerConnectionState state = afterHead(request("GET", HttpVersion.HTTP_1_0, "Connection", "keep-alive"), false);
        assertEquals(ConnectionField.KEEP_ALIVE, state.startResponse(200, NONE, 0, false).connectionField());
        state.endResponse(false);
        assertEquals(Ours.DONE, state.ours());
    }

    @Test
    void noMoreRequestsClosesAndSaysSo() throws Exception {
        ServerConnectionState state = afterHead(get(), false);
        assertEquals(ConnectionField.CLOSE, state.startResponse(200, NONE, 0, true).connectionField());
        state.endResponse(false);
        assertEquals(Ours.MUST_CLOSE, state.ours());
    }

    @Test
    void aKeptHttp11ResponseAddsNoConnectionField() throws Exception {
        assertEquals(ConnectionField.NONE, afterHead(get(), false).startResponse(200, NONE, 0, false).connectionField());
    }

    @Test
    void aResponseBeforeTheBodyEndedClosesTheConnection() throws Exception {
        ServerConnectionState state = afterHead(request("POST", HttpVersion.HTTP_1_1), true);
        state.startResponse(413, NONE, 0, false);
        state.endResponse(false);
        assertEquals(Ours.MUST_CLOSE, state.ours(), "the client may be sending the body still");
    }

    @Test
    void aConnectNotTunnelledClosesTheConnection() throws Exception {
        assertEquals(Ours.MUST_CLOSE, oursAfterResponse(request("CONNECT", HttpVersion.HTTP_1_1), NONE, false));
    }

    @Test
    void aRefusedRequestClosesAndMayBeAnsweredIfNoResponseBegan() throws Exception {
        ServerConnectionState state = afterHead(request("POST", HttpVersion.HTTP_1_1), true);
        assertTrue(state.refuse());
        assertEquals(Ours.MUST_CLOSE, state.ours());
        assertThrows(IllegalStateException.class, () -> state.startResponse(200, NONE, 0, false), "refused: no response");
        assertFalse(state.startNextCycle());
    }

    @Test
    void aRefusalAfterTheResponseBeganMustAbort() throws Exception {
        ServerConnectionState state = afterHead(request("POST", HttpVersion.HTTP_1_1), true);
        state.startResponse(200, NONE, -1, false);
        assertFalse(state.refuse());
        assertEquals(Ours.MUST_CLOSE, state.ours());
    }

    @Test
    void aRefusalBetweenRequestsMayBeAnswered() throws Exception {
        ServerConnectionState state = new ServerConnectionState();
        assertTrue(state.refuse());
        assertEquals(Ours.MUST_CLOSE, state.ours());
    }

    // ---- 100-continue --------------------------------------------------------------------------

    private static HttpRequest expecting() {
        return request("POST", HttpVersion.HTTP_1_1, "Expect", "100-continue");
    }

    @Test
    void continueIsDueOnceForABodyTheClientHolds() throws Exception {
        ServerConnectionState state = afterHead(expecting(), true);
        assertTrue(state.continueDue());
        state.continueSent();
        assertFalse(state.continueDue());
        assertThrows(IllegalStateException.class, state::continueSent);
    }

    @Test
    void continueIsNotDueWithoutTheExpectation() throws Exception {
        assertFalse(afterHead(request("POST", HttpVersion.HTTP_1_1), true).continueDue());
        assertFalse(afterHead(request("POST", HttpVersion.HTTP_1_0, "Expect", "100-continue"), true).continueDue(),
                "HTTP/1.0 has no 100 (Continue)");
    }

    @Test
    void continueIsNotDueWithoutABody() throws Exception {
        assertFalse(afterHead(expecting(), false).continueDue());
    }

    @Test
    void continueIsNotDueOnceTheBodyEnded() throws Exception {
        ServerConnectionState state = afterHead(expecting(), true);
        state.requestEnded();
        assertFalse(state.continueDue());
    }

    @Test
    void continueIsNotDueAfterTheResponseBegan() throws Exception {
        ServerConnectionState state = afterHead(expecting(), true);
        state.startResponse(200, NONE, -1, false);
        assertFalse(state.continueDue());
        assertThrows(IllegalStateException.class, state::continueSent);
    }

    @Test
    void continueIsDueAgainInTheNextCycle() throws Exception {
        ServerConnectionState state = afterHead(expecting(), true);
        state.continueSent();
        state.requestEnded();
        state.startResponse(200, NONE, 0, false);
        state.endResponse(false);
        assertTrue(state.startNextCycle());
        state.requestHead(expecting(), true);
        assertTrue(state.continueDue());
    }

    // ---- framing -------------------------------------------------------------------------------

    @Test
    void aKnownLengthIsFramedByContentLength() throws Exception {
        ResponseFraming framing = afterHead(get(), false).startResponse(200, NONE, 5, false);
        assertEquals(Kind.LENGTH, framing.kind());
        assertEquals(5, framing.headFraming());
        assertTrue(framing.bodyAllowed());
    }

    @Test
    void anUnknownLengthIsChunkedInHttp11() throws Exception {
        ServerConnectionState state = afterHead(get(), false);
        ResponseFraming framing = state.startResponse(200, NONE, -1, false);
        assertEquals(Kind.CHUNKED, framing.kind());
        assertEquals(HttpHead.CHUNKED, framing.headFraming());
        assertTrue(OutgoingBody.of(framing).isChunked(), "its body is written chunked");
        assertEquals(Ending.COMPLETE, state.endResponse(false));
        assertEquals(Ours.DONE, state.ours());
    }

    @Test
    void anUnknownLengthIsCloseDelimitedInHttp10() throws Exception {
        ServerConnectionState state = afterHead(request("GET", HttpVersion.HTTP_1_0, "Connection", "keep-alive"), false);
        ResponseFraming framing = state.startResponse(200, NONE, -1, false);
        assertEquals(Kind.CLOSE_DELIMITED, framing.kind());
        assertEquals(HttpHead.UNFRAMED, framing.headFraming());
        assertEquals(ConnectionField.CLOSE, framing.connectionField());
        assertEquals(Ending.COMPLETE, state.endResponse(false));
        assertEquals(Ours.MUST_CLOSE, state.ours());
    }

    @Test
    void statusesWithoutABodyAreUnframed() throws Exception {
        for (int status : new int[] {100, 204, 304}) {
            ServerConnectionState state = afterHead(get(), false);
            ResponseFraming framing = state.startResponse(status, NONE, 10, false);
            assertEquals(Kind.NONE, framing.kind(), "status " + status);
            assertEquals(HttpHead.UNFRAMED, framing.headFraming());
            assertFalse(framing.bodyAllowed());
            assertThrows(IllegalStateException.class, () -> state.checkSendingBody(1), "status " + status);
            state.checkSendingBody(0);
            assertEquals(Ending.COMPLETE, state.endResponse(false));
        }
    }

    @Test
    void aHeadResponseSaysItsFramingButSendsNoBody() throws Exception {
        ServerConnectionState state = afterHead(request("HEAD", HttpVersion.HTTP_1_1), false);
        ResponseFraming framing = state.startResponse(200, NONE, 100, false);
        assertEquals(Kind.LENGTH, framing.kind());
        assertEquals(100, framing.headFraming(), "the length a GET would have");
        assertFalse(framing.bodyAllowed());
        state.checkSendingBody(100);
        OutgoingBody body = OutgoingBody.of(framing);
        assertFalse(body.write(new byte[100], SINK), "the bytes are dropped");
        assertEquals(OutgoingBody.Ending.COMPLETE, body.end(NONE, SINK), "no length owed");
        assertEquals(Ending.COMPLETE, state.endResponse(false));

        ServerConnectionState chunked = afterHead(request("HEAD", HttpVersion.HTTP_1_1), false);
        ResponseFraming chunkedFraming = chunked.startResponse(200, NONE, -1, false);
        assertEquals(HttpHead.CHUNKED, chunkedFraming.headFraming());
        assertFalse(OutgoingBody.of(chunkedFraming).isChunked(), "no chunks, nor a last one, for a HEAD response");
        assertEquals(Ending.COMPLETE, chunked.endResponse(false), "no last chunk for a HEAD response");
    }

    @Test
    void anEmptyPieceIsNotSent() throws Exception {
        ServerConnectionState state = afterHead(get(), false);
        OutgoingBody body = OutgoingBody.of(state.startResponse(200, NONE, -1, false));
        state.checkSendingBody(0);
        assertFalse(body.write(new byte[0], SINK), "an empty chunk would end the body");
    }

    @Test
    void aBodyLongerThanItsContentLengthIsRefused() throws Exception {
        ServerConnectionState state = afterHead(get(), false);
        OutgoingBody body = OutgoingBody.of(state.startResponse(200, NONE, 4, false));
        assertTrue(body.write(new byte[3], SINK));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> body.write(new byte[2], SINK));
        assertTrue(e.getMessage().contains("leaves 1"), e.getMessage());
        assertTrue(body.write(new byte[1], SINK));
        assertEquals(Ending.COMPLETE, state.endResponse(body.end(NONE, SINK) == OutgoingBody.Ending.SHORT));
    }

    @Test
    void aBodyShorterThanItsContentLengthAborts() throws Exception {
        ServerConnectionState state = afterHead(get(), false);
        OutgoingBody body = OutgoingBody.of(state.startResponse(200, NONE, 4, false));
        body.write(new byte[3], SINK);
        assertEquals(Ending.ABORT, state.endResponse(body.end(NONE, SINK) == OutgoingBody.Ending.SHORT));
        assertEquals(Ours.MUST_CLOSE, state.ours());
    }

    // ---- what may be sent next -----------------------------------------------------------------

    @Test
    void aSecondResponseIsAnError() throws Exception {
        ServerConnectionState state = afterHead(get(), false);
        state.startResponse(200, NONE, 0, false);
        assertThrows(IllegalStateException.class, () -> state.startResponse(200, NONE, 0, false));
        state.endResponse(false);
        assertThrows(IllegalStateException.class, () -> state.startResponse(200, NONE, 0, false));
    }

    @Test
    void aResponseWithoutARequestIsAnError() throws Exception {
        assertThrows(IllegalStateException.class, () -> new ServerConnectionState().startResponse(200, NONE, 0, false));
    }

    @Test
    void aBodyBeforeTheResponseOrAfterItsEndIsAnError() throws Exception {
        ServerConnectionState state = afterHead(get(), false);
        IllegalStateException before = assertThrows(IllegalStateException.class, () -> state.checkSendingBody(1));
        assertEquals("startResponse first", before.getMessage());
        state.startResponse(200, NONE, -1, false);
        state.endResponse(false);
        IllegalStateException after = assertThrows(IllegalStateException.class, () -> state.checkSendingBody(1));
        assertEquals("the response has ended", after.getMessage());
    }

    @Test
    void endingTwiceIsNothingButEndingBeforeStartingIsAnError() throws Exception {
        ServerConnectionState state = afterHead(get(), false);
        assertThrows(IllegalStateException.class, () -> state.endResponse(false));
        state.startResponse(200, NONE, 0, false);
        assertEquals(Ending.COMPLETE, state.endResponse(false));
        assertEquals(Ending.ALREADY_ENDED, state.endResponse(false));
        assertEquals(Ours.DONE, state.ours());
    }

    // ---- upgrade and CONNECT -------------------------------------------------------------------

    @Test
    void anUpgradeIsTakenOverWith101() throws Exception {
        ServerConnectionState state = afterHead(get("Upgrade", "websocket", "Connection", "Upgrade"), false);
        assertFalse(state.takeOver(101));
        assertEquals(Ours.SWITCHED, state.ours());
        assertTrue(state.responseStarted());
        assertFalse(state.startNextCycle(), "no more HTTP");
        assertThrows(IllegalStateException.class, () -> state.startResponse(200, NONE, 0, false));
        assertFalse(state.refuse(), "nothing more is written on a switched connection");
        assertEquals(Ours.SWITCHED, state.ours());
    }

    @Test
    void onlyARequestWithUpgradeIsTakenOverAndOnlyWith101() throws Exception {
        assertThrows(IllegalArgumentException.class, () -> afterHead(get(), false).takeOver(101));
        assertThrows(IllegalArgumentException.class, () -> afterHead(get("Upgrade", "h2c"), false).takeOver(200));
    }

    @Test
    void aConnectIsTunnelledWithA2xx() throws Exception {
        assertTrue(afterHead(request("CONNECT", HttpVersion.HTTP_1_1), false).takeOver(200));
        assertThrows(IllegalArgumentException.class,
                () -> afterHead(request("CONNECT", HttpVersion.HTTP_1_1), false).takeOver(101));
    }

    @Test
    void aTakeOverNeedsTheWholeRequestAndNoResponse() throws Exception {
        ServerConnectionState unread = afterHead(request("CONNECT", HttpVersion.HTTP_1_1), true);
        assertThrows(IllegalStateException.class, () -> unread.takeOver(200));
        assertEquals(Ours.SEND_RESPONSE, unread.ours(), "a refused call changes nothing");
        ServerConnectionState answered = afterHead(get("Upgrade", "websocket"), false);
        answered.startResponse(200, NONE, 0, false);
        assertThrows(IllegalStateException.class, () -> answered.takeOver(101));
    }
}
