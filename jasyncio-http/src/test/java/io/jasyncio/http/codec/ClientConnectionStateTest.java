package io.jasyncio.http.codec;

import io.jasyncio.http.HttpHead;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.HttpVersion;
import io.jasyncio.http.codec.ClientConnectionState.Ours;
import io.jasyncio.http.codec.ClientConnectionState.Response;
import io.jasyncio.http.codec.ClientConnectionState.Theirs;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The client connection's state machine, driven without a socket or a loop. */
class ClientConnectionStateTest {
    private static final HttpHeaders NONE = HttpHeaders.empty();

    private static HttpResponse response(int status, HttpVersion version, String... headers) {
        return new HttpResponse(status, "", version, HttpHeaders.of(headers), new byte[0]);
    }

    private static HttpResponse ok(String... headers) {
        return response(200, HttpVersion.HTTP_1_1, headers);
    }

    /** A GET sent and answered by {@code head} (its body read to the end). */
    private static ClientConnectionState afterGet(HttpResponse head, boolean bodyUntilClose) throws HttpParseException {
        ClientConnectionState state = new ClientConnectionState();
        state.startRequest("GET", NONE, false, 0);
        state.requestSent();
        assertEquals(Response.FINAL, state.responseHead(head, bodyUntilClose));
        assertTrue(state.responseEnded());
        return state;
    }

    // ---- the states of a cycle -----------------------------------------------------------------

    @Test
    void aKeptAliveCycleReturnsBothSidesToIdle() throws Exception {
        ClientConnectionState state = new ClientConnectionState();
        assertTrue(state.idle());
        assertEquals(HttpHead.UNFRAMED, state.startRequest("GET", NONE, false, 0));
        assertEquals(Ours.SEND_BODY, state.ours());
        assertEquals(Theirs.SEND_RESPONSE, state.theirs());
        assertFalse(state.idle());
        state.requestSent();
        assertEquals(Ours.DONE, state.ours());
        assertFalse(state.cycleDone());
        assertEquals(Response.FINAL, state.responseHead(ok("Content-Length", "2"), false));
        assertEquals(Theirs.SEND_BODY, state.theirs());
        assertTrue(state.responseEnded());
        assertEquals(Theirs.DONE, state.theirs());
        assertTrue(state.cycleDone());
        assertEquals(0, state.cycle());
        assertTrue(state.startNextCycle(), "the connection goes back to the pool");
        assertTrue(state.idle());
        assertEquals(1, state.cycle());
        state.startRequest("GET", NONE, false, 0); // and carries the next request
    }

    @Test
    void aResponseMayEndBeforeTheRequestIsDrainedButTheCycleEndsWithBoth() throws Exception {
        ClientConnectionState state = new ClientConnectionState();
        state.startRequest("POST", NONE, true, 3);
        state.requestBody().write(new byte[3], new Discard());
        state.requestBody().end(NONE, new Discard());
        assertEquals(Response.FINAL, state.responseHead(ok(), false));
        assertTrue(state.answeredEarly(), "the request was not all sent");
        assertTrue(state.responseEnded());
        assertFalse(state.cycleDone(), "our side is still sending");
        assertFalse(state.startNextCycle());
        state.requestSent();
        assertTrue(state.cycleDone());
        assertFalse(state.startNextCycle(), "answered early: the connection is aborted, not reused");
    }

    // ---- how the request is framed -------------------------------------------------------------

    @Test
    void theRequestHeadStatesItsFraming() {
        assertEquals(HttpHead.UNFRAMED, new ClientConnectionState().startRequest("GET", NONE, false, 0));
        assertEquals(HttpHead.UNFRAMED, new ClientConnectionState().startRequest("DELETE", NONE, false, 0));
        // RFC 9110 §8.6: a method that expects content says there is none
        assertEquals(0, new ClientConnectionState().startRequest("POST", NONE, false, 0));
        assertEquals(0, new ClientConnectionState().startRequest("PUT", NONE, false, 0));
        ClientConnectionState known = new ClientConnectionState();
        assertEquals(5, known.startRequest("POST", NONE, true, 5));
        assertEquals(5, known.requestBody().remaining());
        assertFalse(known.requestBody().isChunked());
        ClientConnectionState unknown = new ClientConnectionState();
        assertEquals(HttpHead.CHUNKED, unknown.startRequest("POST", NONE, true, -1));
        assertTrue(unknown.requestBody().isChunked());
        ClientConnectionState none = new ClientConnectionState();
        none.startRequest("POST", NONE, false, 0);
        assertFalse(none.requestBody().write(new byte[1], new Discard()), "no body: nothing goes on the wire");
        assertThrows(IllegalArgumentException.class, () -> new ClientConnectionState().startRequest("POST", NONE, true, -2));
    }

    // ---- keep-alive and reuse ------------------------------------------------------------------

    @Test
    void connectionCloseInTheRequestClosesAfterTheCycle() throws Exception {
        ClientConnectionState state = new ClientConnectionState();
        state.startRequest("GET", HttpHeaders.of("Connection", "close"), false, 0);
        assertFalse(state.keepAlive());
        state.requestSent();
        assertEquals(Ours.MUST_CLOSE, state.ours());
        state.responseHead(ok(), false);
        state.responseEnded();
        assertEquals(Theirs.MUST_CLOSE, state.theirs());
        assertTrue(state.cycleDone());
        assertFalse(state.startNextCycle());
        assertFalse(state.idle());
    }

    @Test
    void theResponseSaysWhetherTheConnectionIsKept() throws Exception {
        assertFalse(afterGet(ok("Connection", "close"), false).startNextCycle(), "Connection: close");
        assertFalse(afterGet(ok("Connection", "keep-alive, Close"), false).startNextCycle(), "close among tokens");
        assertFalse(afterGet(response(200, HttpVersion.HTTP_1_0), false).startNextCycle(), "HTTP/1.0 closes by default");
        assertTrue(afterGet(response(200, HttpVersion.HTTP_1_0, "Connection", "keep-alive"), false).startNextCycle(),
                "HTTP/1.0 with keep-alive");
        assertFalse(afterGet(ok(), true).startNextCycle(), "a body ended by the close (RFC 9112 §6.3)");
        assertTrue(afterGet(response(204, HttpVersion.HTTP_1_1), false).startNextCycle());
    }

    @Test
    void aDoneSideMustCloseOnceTheResponseSaysClose() throws Exception {
        ClientConnectionState state = new ClientConnectionState();
        state.startRequest("GET", NONE, false, 0);
        state.requestSent();
        assertEquals(Ours.DONE, state.ours());
        state.responseHead(ok("Connection", "close"), false);
        assertEquals(Ours.MUST_CLOSE, state.ours(), "our side learns of the close with the response head");
    }

    @Test
    void aClosedConnectionCarriesNothingMore() throws Exception {
        ClientConnectionState state = new ClientConnectionState();
        state.startRequest("GET", NONE, false, 0);
        state.closed();
        assertEquals(Ours.CLOSED, state.ours());
        assertEquals(Theirs.CLOSED, state.theirs());
        assertFalse(state.idle());
        assertFalse(state.cycleDone());
        assertFalse(state.startNextCycle());
        assertFalse(state.sendingBody());
        assertThrows(IllegalStateException.class, () -> state.startRequest("GET", NONE, false, 0));
        assertThrows(HttpParseException.class, () -> state.responseHead(ok(), false));
    }

    // ---- 100-continue and other interim responses ----------------------------------------------

    @Test
    void aRequestThatExpectsContinueWaitsForTheHundred() throws Exception {
        ClientConnectionState state = new ClientConnectionState();
        state.startRequest("PUT", HttpHeaders.of("Expect", "100-continue"), true, 4);
        assertTrue(state.awaitingContinue());
        assertEquals(Response.CONTINUE, state.responseHead(response(100, HttpVersion.HTTP_1_1), false));
        assertFalse(state.awaitingContinue(), "the body goes now");
        assertTrue(state.sendingBody());
        assertFalse(state.responseEnded(), "the 100's end is not the response's");
        assertEquals(Theirs.SEND_RESPONSE, state.theirs());
        state.requestSent();
        assertEquals(Response.FINAL, state.responseHead(ok(), false));
        assertFalse(state.answeredEarly());
        assertTrue(state.responseEnded());
        assertTrue(state.startNextCycle());
        assertFalse(state.awaitingContinue(), "the next request expects nothing");
    }

    @Test
    void onlyARequestWithABodyWaitsForContinue() {
        ClientConnectionState state = new ClientConnectionState();
        state.startRequest("GET", HttpHeaders.of("Expect", "100-continue"), false, 0);
        assertFalse(state.awaitingContinue());
        ClientConnectionState plain = new ClientConnectionState();
        plain.startRequest("POST", NONE, true, 4);
        assertFalse(plain.awaitingContinue());
    }

    @Test
    void aFinalResponseInsteadOfTheHundredMeansTheBodyIsNotSent() throws Exception {
        ClientConnectionState state = new ClientConnectionState();
        state.startRequest("PUT", HttpHeaders.of("Expect", "100-continue"), true, 4);
        assertEquals(Response.FINAL, state.responseHead(response(417, HttpVersion.HTTP_1_1), false));
        assertFalse(state.awaitingContinue());
        assertTrue(state.answeredEarly());
        assertFalse(state.sendingBody(), "the rest of the body is not sent (RFC 9112 §9.5)");
        assertFalse(state.keepAlive());
        assertTrue(state.responseEnded());
        state.requestSent();
        assertFalse(state.startNextCycle());
    }

    @Test
    void interimResponsesAreSkipped() throws Exception {
        ClientConnectionState state = new ClientConnectionState();
        state.startRequest("GET", NONE, false, 0);
        state.requestSent();
        assertEquals(Response.INTERIM, state.responseHead(response(103, HttpVersion.HTTP_1_1, "Link", "</a.css>"), false));
        assertFalse(state.responseEnded());
        assertEquals(Response.INTERIM, state.responseHead(response(102, HttpVersion.HTTP_1_1), false));
        assertFalse(state.responseEnded());
        assertEquals(Theirs.SEND_RESPONSE, state.theirs());
        assertEquals(Response.FINAL, state.responseHead(ok(), false));
        assertTrue(state.responseEnded());
        assertTrue(state.startNextCycle());
    }

    // ---- hand-over: 101 and CONNECT ------------------------------------------------------------

    @Test
    void a101ToAnUpgradeSwitchesProtocols() throws Exception {
        ClientConnectionState state = new ClientConnectionState();
        state.startRequest("GET", HttpHeaders.of("Upgrade", "websocket", "Connection", "Upgrade"), false, 0);
        state.requestSent();
        assertEquals(Response.SWITCHED, state.responseHead(response(101, HttpVersion.HTTP_1_1, "Upgrade", "websocket"), false));
        assertEquals(Ours.SWITCHED, state.ours());
        assertEquals(Theirs.SWITCHED, state.theirs());
        assertFalse(state.cycleDone());
        assertFalse(state.startNextCycle(), "no more HTTP on this connection");
    }

    @Test
    void a101WithoutAnUpgradeIsRefusedAndChangesNothing() throws Exception {
        ClientConnectionState state = new ClientConnectionState();
        state.startRequest("GET", NONE, false, 0);
        state.requestSent();
        HttpParseException e = assertThrows(HttpParseException.class,
                () -> state.responseHead(response(101, HttpVersion.HTTP_1_1, "Upgrade", "h2c"), false));
        assertEquals(400, e.status());
        assertEquals(Theirs.SEND_RESPONSE, state.theirs());
        assertEquals(Ours.DONE, state.ours());
    }

    @Test
    void aTwoHundredToConnectOpensATunnelAndAnyOtherIsAnAnswer() throws Exception {
        ClientConnectionState tunnel = new ClientConnectionState();
        tunnel.startRequest("CONNECT", NONE, false, 0);
        tunnel.requestSent();
        assertEquals(Response.SWITCHED, tunnel.responseHead(ok(), false));
        assertEquals(Theirs.SWITCHED, tunnel.theirs());
        ClientConnectionState refused = new ClientConnectionState();
        refused.startRequest("CONNECT", NONE, false, 0);
        refused.requestSent();
        assertEquals(Response.FINAL, refused.responseHead(response(407, HttpVersion.HTTP_1_1), false));
        assertTrue(refused.responseEnded());
        assertTrue(refused.startNextCycle());
        ClientConnectionState notConnect = new ClientConnectionState();
        notConnect.startRequest("GET", NONE, false, 0);
        notConnect.requestSent();
        assertEquals(Response.FINAL, notConnect.responseHead(ok(), false), "a 200 to GET switches nothing");
    }

    // ---- what the protocol forbids -------------------------------------------------------------

    @Test
    void aResponseWithoutARequestIsRefused() throws Exception {
        ClientConnectionState idle = new ClientConnectionState();
        assertEquals(400, assertThrows(HttpParseException.class, () -> idle.responseHead(ok(), false)).status());
        ClientConnectionState answered = new ClientConnectionState();
        answered.startRequest("POST", NONE, true, 10);
        answered.responseHead(ok(), false);
        answered.responseEnded();
        assertThrows(HttpParseException.class, () -> answered.responseHead(ok(), false),
                "a second response to one request");
        assertEquals(Theirs.MUST_CLOSE, answered.theirs(), "answered early: the connection closes after it");
    }

    @Test
    void outOfOrderCallsAreOurMistakeAndChangeNothing() throws Exception {
        ClientConnectionState state = new ClientConnectionState();
        assertThrows(IllegalStateException.class, state::requestSent);
        assertThrows(IllegalStateException.class, state::responseEnded);
        state.startRequest("GET", NONE, false, 0);
        assertThrows(IllegalStateException.class, () -> state.startRequest("GET", NONE, false, 0), "one request at a time");
        assertThrows(IllegalStateException.class, state::responseEnded, "no response head yet");
        state.requestSent();
        assertThrows(IllegalStateException.class, state::requestSent);
        assertEquals(Ours.DONE, state.ours());
    }

    // ---- the shared rules ----------------------------------------------------------------------

    @Test
    void theSharedRulesOfPersistenceAndHandOver() {
        assertTrue(ConnectionRules.keepsAlive(HttpVersion.HTTP_1_1, NONE));
        assertFalse(ConnectionRules.keepsAlive(HttpVersion.HTTP_1_1, HttpHeaders.of("Connection", "close")));
        assertFalse(ConnectionRules.keepsAlive(HttpVersion.HTTP_1_0, NONE));
        assertTrue(ConnectionRules.keepsAlive(HttpVersion.HTTP_1_0, HttpHeaders.of("Connection", "Keep-Alive")));
        assertFalse(ConnectionRules.keepsAlive(HttpVersion.HTTP_1_0, HttpHeaders.of("Connection", "keep-alive, close")));
        assertTrue(ConnectionRules.switchesProtocols(true, false, 200));
        assertTrue(ConnectionRules.switchesProtocols(true, false, 299));
        assertFalse(ConnectionRules.switchesProtocols(true, false, 407));
        assertTrue(ConnectionRules.switchesProtocols(false, true, 101));
        assertFalse(ConnectionRules.switchesProtocols(false, false, 101));
        assertFalse(ConnectionRules.switchesProtocols(false, true, 200));
    }

    /** A sink that drops what it is given. */
    private static final class Discard implements OutgoingBody.Sink {
        @Override
        public void put(byte[] bytes) {
        }

        @Override
        public void put(ByteBuffer bytes) {
            bytes.position(bytes.limit());
        }
    }
}
