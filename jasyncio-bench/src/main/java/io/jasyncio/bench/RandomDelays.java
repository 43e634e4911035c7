package io.jasyncio.bench;

import java.util.SplittableRandom;

/** The same seeded random timer delays for jasyncio and Netty, so both heaps see the same order. */
final class RandomDelays {
    private RandomDelays() {
    }

    /** {@code count} delays in nanoseconds, uniform in [1 s, 60 s): far enough that none fires. */
    static long[] nanos(int count) {
        SplittableRandom random = new SplittableRandom(42);
        long[] delays = new long[count];
        for (int i = 0; i < count; i++) {
            delays[i] = random.nextLong(1_000_000_000L, 60_000_000_000L);
        }
        return delays;
    }
}
