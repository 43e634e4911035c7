package io.jasyncio.debug;

/**
 * A fixed log-linear histogram of durations (loop lag), with no dependency: microsecond values
 * below 16 get a bucket each; above, every power of two is split in 8 sub-buckets, so a reported
 * percentile is within 12.5% of the truth. Values past about 67 s share the last bucket. Not
 * thread-safe: one writer (the loop thread); readers on other threads see a slightly stale copy.
 */
public final class LagHistogram {
    private static final int LINEAR = 16;        // 0..15 µs: exact
    private static final int SUB_BUCKETS = 8;    // per power of two above that
    private static final int MAX_EXPONENT = 26;  // 2^26 µs ≈ 67 s: larger lags share the last bucket
    private static final int BUCKETS = LINEAR + (MAX_EXPONENT - 3) * SUB_BUCKETS;

    private final long[] counts = new long[BUCKETS];
    private long total;
    private long maxNanos;

    /** An empty histogram. */
    public LagHistogram() {
    }

    /** Records one lag; negative values count as zero. */
    public void record(long nanos) {
        long n = Math.max(0, nanos);
        counts[bucketOf(n / 1000)]++;
        total++;
        if (n > maxNanos) {
            maxNanos = n;
        }
    }

    static int bucketOf(long micros) {
        if (micros < LINEAR) {
            return (int) micros;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(micros); // >= 4
        if (exponent >= MAX_EXPONENT) {
            return BUCKETS - 1;
        }
        int sub = (int) (micros >>> (exponent - 3)) & (SUB_BUCKETS - 1);
        return LINEAR + (exponent - 4) * SUB_BUCKETS + sub;
    }

    /** The largest value (in microseconds) that falls in {@code bucket}. */
    static long upperMicrosOf(int bucket) {
        if (bucket < LINEAR) {
            return bucket;
        }
        int exponent = (bucket - LINEAR) / SUB_BUCKETS + 4;
        int sub = (bucket - LINEAR) % SUB_BUCKETS;
        long width = 1L << (exponent - 3);
        return (1L << exponent) + (sub + 1) * width - 1;
    }

    /** How many durations were recorded. */
    public long count() {
        return total;
    }

    /** The longest duration recorded, exactly, in nanoseconds. */
    public long maxNanos() {
        return maxNanos;
    }

    /**
     * The value below which {@code percentile}% of the recorded lags fall (bucket upper bound,
     * capped at the true maximum), in nanoseconds; 0 when nothing was recorded.
     */
    public long percentileNanos(double percentile) {
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(percentile / 100.0 * total));
        long seen = 0;
        for (int b = 0; b < BUCKETS; b++) {
            seen += counts[b];
            if (seen >= rank) {
                return Math.min(maxNanos, upperMicrosOf(b) * 1000 + 999);
            }
        }
        return maxNanos;
    }
}
