package io.jasyncio.http.codec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which wait on the client is timed, and what is due when it passes, on a clock the test moves. */
class ReceiveDeadlinesTest {
    /** idle 10 s, head 2 s, body pause 3 s, whole request 20 s, linger 1 s, send 5 s. */
    private static ServerTimeouts timeouts(RateFloor bodyFloor) {
        return new ServerTimeouts(10, 2, 3, 20, 1, 5, bodyFloor, null);
    }

    private static ReceiveDeadlines deadlines() {
        return new ReceiveDeadlines(timeouts(null));
    }

    @Test
    void anIdleConnectionClosesAtItsDeadline() {
        ReceiveDeadlines d = deadlines();
        d.idle(100);
        assertEquals(ReceiveDeadlines.Due.NOTHING, d.check(109.9, false, false));
        assertEquals(ReceiveDeadlines.Due.CLOSE_IDLE, d.check(110, false, false));
    }

    @Test
    void aRequestThatBeganHasItsHeadsDeadlineNotTheIdleOne() {
        ReceiveDeadlines d = deadlines();
        d.idle(100);
        d.requestBegan(101);
        assertEquals(ReceiveDeadlines.Due.NOTHING, d.check(102.9, false, false));
        assertEquals(ReceiveDeadlines.Due.REFUSE, d.check(103, false, false));
        assertEquals(408, d.refusal().status());
        assertEquals("the request head did not arrive within 2.0 s", d.refusal().reason());
    }

    @Test
    void aBodyMayPauseUpToItsDeadlineEachTimeBytesArrive() {
        ReceiveDeadlines d = deadlines();
        d.idle(0);
        d.requestBegan(0);
        d.headArrived(1, true);
        d.bodyArrived(3, 10);
        assertEquals(ReceiveDeadlines.Due.NOTHING, d.check(5.9, false, false), "3 s from the last piece, not the head");
        assertEquals(ReceiveDeadlines.Due.REFUSE, d.check(6, false, false));
        assertEquals("the request body made no progress for 3.0 s", d.refusal().reason());
    }

    @Test
    void aPauseTheServerCausesIsNotTheClients() {
        ReceiveDeadlines d = deadlines();
        d.idle(0);
        d.headArrived(0, true);
        assertEquals(ReceiveDeadlines.Due.NOTHING, d.check(4, false, true), "reading paused: the deadline moves on");
        assertEquals(ReceiveDeadlines.Due.NOTHING, d.check(6.9, false, false));
        assertEquals(ReceiveDeadlines.Due.REFUSE, d.check(7, false, false));
    }

    @Test
    void theWholeRequestHasADeadlineFromItsFirstByte() {
        ReceiveDeadlines d = deadlines();
        d.idle(0);
        d.requestBegan(1);
        d.headArrived(2, true);
        for (int t = 3; t <= 21; t++) {
            d.bodyArrived(t, 1); // a piece every second: the pause deadline never passes
            assertEquals(ReceiveDeadlines.Due.NOTHING, d.check(t, false, false), "at " + t);
        }
        assertEquals(ReceiveDeadlines.Due.REFUSE, d.check(21.1, false, false));
        assertEquals("the request did not arrive within 20.0 s", d.refusal().reason());
    }

    @Test
    void aCompleteRequestIsNotTimedUntilItsResponseIsWritten() {
        ReceiveDeadlines d = deadlines();
        d.idle(0);
        d.requestBegan(0);
        d.headArrived(0, false);
        d.requestComplete();
        assertEquals(ReceiveDeadlines.Due.NOTHING, d.check(1000, false, false));
        d.idle(1000);
        assertEquals(ReceiveDeadlines.Due.CLOSE_IDLE, d.check(1010, false, false));
    }

    @Test
    void aSlowBodyFallsBelowTheFloorCountedOnlyWhileTheServerReads() {
        ReceiveDeadlines d = new ReceiveDeadlines(timeouts(new RateFloor(100, 2)));
        d.idle(0);
        d.headArrived(0, true);
        d.bodyRequested(0, false);
        d.bodyArrived(1, 150);
        d.readingChanged(1.5, false); // the server holds the client back from 1.5 s on
        d.bodyArrived(2, 0);
        assertEquals(ReceiveDeadlines.Due.NOTHING, d.check(2.5, false, true), "1.5 s counted: within the grace");
        d.readingChanged(2.5, true);
        d.bodyArrived(3, 0);
        assertEquals(ReceiveDeadlines.Due.REFUSE, d.check(3.1, false, false), "2.1 s counted, 150 bytes: below 100 B/s");
        assertTrue(d.refusal().reason().startsWith("the request body came too slowly: 150 bytes in 2.1 s"),
                d.refusal().reason());
    }

    @Test
    void aClosingConnectionWaitsOnlyForItsLinger() {
        ReceiveDeadlines d = deadlines();
        d.idle(0);
        d.requestBegan(0);
        assertEquals(ReceiveDeadlines.Due.NOTHING, d.check(50, true, false), "closing: no refusal, no idle close");
        d.linger(50);
        assertEquals(ReceiveDeadlines.Due.NOTHING, d.check(50.9, true, false));
        assertEquals(ReceiveDeadlines.Due.END_LINGER, d.check(51, true, false));
        assertEquals(ReceiveDeadlines.Due.NOTHING, d.check(52, true, false), "once");
        d.stop();
    }
}
