package io.jasyncio.http.codec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rate floor's arithmetic, on a clock the test moves: Kestrel's rule (bytes over counted time, after a grace). */
class RateMeterTest {
    private static RateMeter meter() {
        return new RateMeter(new RateFloor(240, 5));
    }

    @Test
    void nothingIsBelowTheFloorWithinTheGracePeriod() {
        RateMeter m = meter();
        m.start(100);
        assertFalse(m.isBelowFloor(104.9), "no byte yet, but within the grace period");
        assertTrue(m.isBelowFloor(105.1), "no byte after the grace period");
    }

    @Test
    void theAverageSinceTheStartMustKeepUpWithTheFloor() {
        RateMeter m = meter();
        m.start(0);
        m.add(240 * 6);
        assertFalse(m.isBelowFloor(6), "240 B/s exactly");
        assertTrue(m.isBelowFloor(6.5), "the same bytes over a longer time");
        m.add(240);
        assertFalse(m.isBelowFloor(6.5));
    }

    @Test
    void aTrickleOfOneByteAPieceFallsBelow() {
        RateMeter m = meter();
        m.start(0);
        for (int second = 1; second <= 20; second++) {
            m.add(1);
            if (second > 5) {
                assertTrue(m.isBelowFloor(second), "1 B/s at " + second + " s");
            }
        }
    }

    @Test
    void pausedTimeIsNotCounted() {
        RateMeter m = meter();
        m.start(0);
        m.add(240 * 3);
        m.pause(3);
        assertFalse(m.isBelowFloor(60), "the server held the client back for 57 s: not the client's fault");
        m.resume(60);
        m.add(240 * 3);
        assertFalse(m.isBelowFloor(63), "6 s counted, 1440 bytes");
        assertTrue(m.isBelowFloor(65), "8 s counted, 1440 bytes");
    }

    @Test
    void aStoppedMeterIsNeverBelowAndStartsAfresh() {
        RateMeter m = meter();
        m.start(0);
        assertTrue(m.isBelowFloor(10));
        m.stop();
        assertFalse(m.isBelowFloor(20));
        m.start(20);
        assertFalse(m.isBelowFloor(24), "a new transfer has its own grace period");
    }
}
