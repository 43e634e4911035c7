package io.jasyncio.http.codec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The send timeout and the response rate floor, fed what the transport buffers on a clock the test moves. */
class SendDeadlinesTest {
    private static SendDeadlines sending(RateFloor floor) {
        return new SendDeadlines(new ServerTimeouts(10, 2, 3, 20, 1, 5, null, floor));
    }

    @Test
    void aClientThatTakesNothingForTheSendTimeoutHasStalled() {
        SendDeadlines s = sending(null);
        s.progressed(0);
        assertEquals(SendDeadlines.Verdict.OK, s.check(1, 1000, 1000, false));
        assertEquals(SendDeadlines.Verdict.OK, s.check(4.9, 1000, 1000, false));
        assertEquals(SendDeadlines.Verdict.STALLED, s.check(5, 1000, 1000, false), "5 s since the client last took bytes");
        assertEquals("the client took none of 1000 response bytes for 5.0 s (it stopped reading)", s.reason());
    }

    @Test
    void anyBytesTakenOrNoneWaitingCountAsProgress() {
        SendDeadlines s = sending(null);
        s.progressed(0);
        s.check(1, 1000, 1000, false);
        assertEquals(SendDeadlines.Verdict.OK, s.check(4, 999, 1000, false), "the client took a byte at 4 s");
        assertEquals(SendDeadlines.Verdict.OK, s.check(8.9, 999, 1000, false));
        assertEquals(SendDeadlines.Verdict.STALLED, s.check(9, 999, 1000, false));
        SendDeadlines idle = sending(null);
        idle.progressed(0);
        assertEquals(SendDeadlines.Verdict.OK, idle.check(100, 0, 5000, false), "nothing waits: nothing to time");
        assertEquals(SendDeadlines.Verdict.OK, idle.check(104, 10, 5010, false));
    }

    @Test
    void aGoneConnectionIsNotDropped() {
        SendDeadlines s = sending(new RateFloor(1000, 1));
        s.progressed(0);
        s.check(0, 500, 500, false);
        assertEquals(SendDeadlines.Verdict.OK, s.check(60, 500, 500, true));
    }

    @Test
    void aClientTakingBytesBelowTheFloorIsTooSlow() {
        SendDeadlines s = sending(new RateFloor(100, 2));
        s.progressed(0);
        assertEquals(SendDeadlines.Verdict.OK, s.check(0, 10_000, 10_000, false), "bytes begin to wait: the meter starts");
        assertEquals(SendDeadlines.Verdict.OK, s.check(1, 9_950, 10_000, false));
        assertEquals(SendDeadlines.Verdict.OK, s.check(2, 9_900, 10_000, false), "within the grace");
        assertEquals(SendDeadlines.Verdict.TOO_SLOW, s.check(2.5, 9_880, 10_000, false), "120 bytes in 2.5 s");
        assertEquals("the client took response bytes too slowly: 120 bytes in 2.5 s, under the floor of 100.0 B/s", s.reason());
    }

    @Test
    void theFloorIsMetByAClientThatKeepsUpAndStopsWhenNothingWaits() {
        SendDeadlines s = sending(new RateFloor(100, 2));
        s.progressed(0);
        s.check(0, 10_000, 10_000, false);
        for (int t = 1; t <= 10; t++) {
            assertEquals(SendDeadlines.Verdict.OK, s.check(t, 10_000 - 200L * t, 10_000, false), "200 B/s at " + t);
        }
        assertEquals(SendDeadlines.Verdict.OK, s.check(11, 0, 10_000, false), "all taken: the meter stops");
        assertEquals(SendDeadlines.Verdict.OK, s.check(30, 0, 10_000, false));
        assertEquals(SendDeadlines.Verdict.OK, s.check(31, 500, 10_500, false), "bytes wait again: a new grace period");
        assertEquals(SendDeadlines.Verdict.OK, s.check(32.9, 500, 10_500, false));
    }
}
