package io.jasyncio.http.codec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What the server does at the client's EOF, for each state of its connection. */
class PeerEofTest {
    @Test
    void aClosingConnectionClosesAfterItsWrites() {
        assertEquals(PeerEof.CLOSE_AFTER_WRITES, PeerEof.of(true, true, true, true));
        assertEquals(PeerEof.CLOSE_AFTER_WRITES, PeerEof.of(true, false, false, false));
    }

    @Test
    void aClientGoneWhileItsLastRequestIsAnsweredCancelsTheHandler() {
        assertEquals(PeerEof.CLIENT_GONE, PeerEof.of(false, true, false, true));
        assertEquals(PeerEof.ANSWER_THE_REST, PeerEof.of(false, true, false, false), "cancellation off: answer it");
        assertEquals(PeerEof.ANSWER_THE_REST, PeerEof.of(false, true, true, true), "requests wait after it: answer them");
    }

    @Test
    void withNothingOwedTheRequestsHaveEnded() {
        assertEquals(PeerEof.END_OF_REQUESTS, PeerEof.of(false, false, false, true));
        assertEquals(PeerEof.ANSWER_THE_REST, PeerEof.of(false, false, true, true), "held requests are parsed first");
    }
}
