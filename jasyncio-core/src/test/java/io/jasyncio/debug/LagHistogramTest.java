package io.jasyncio.debug;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class LagHistogramTest {

    @Test
    void percentilesAreWithinTheBucketPrecision() {
        LagHistogram h = new LagHistogram();
        for (int i = 1; i <= 1000; i++) {
            h.record(i * 1_000_000L); // 1 ms .. 1000 ms
        }
        assertEquals(1000, h.count());
        assertEquals(1_000_000_000L, h.maxNanos());
        assertWithin(500_000_000L, h.percentileNanos(50));
        assertWithin(990_000_000L, h.percentileNanos(99));
        assertEquals(h.maxNanos(), h.percentileNanos(100));
    }

    @Test
    void smallAndNegativeValuesAndTheEmptyHistogram() {
        LagHistogram h = new LagHistogram();
        assertEquals(0, h.percentileNanos(99));
        h.record(-5);
        h.record(3_000);
        assertEquals(0, h.percentileNanos(50) / 1000);
        assertEquals(3, h.percentileNanos(100) / 1000);
    }

    @Test
    void bucketsAreContiguousAndTheirUpperBoundsGrow() {
        long previousUpper = -1;
        for (long micros = 0; micros < 5_000_000; micros = micros < 100 ? micros + 1 : micros * 11 / 10) {
            int b = LagHistogram.bucketOf(micros);
            assertTrue(LagHistogram.upperMicrosOf(b) >= micros, "bucket " + b + " holds " + micros);
            assertTrue(b == 0 || LagHistogram.upperMicrosOf(b - 1) < micros, "bucket " + b + " starts after " + micros);
            assertTrue(LagHistogram.upperMicrosOf(b) >= previousUpper);
            previousUpper = LagHistogram.upperMicrosOf(b);
        }
    }

    private static void assertWithin(long expected, long actual) {
        assertTrue(actual >= expected && actual <= expected * 1.125 + 1000, "expected ~" + expected + " got " + actual);
    }
}
