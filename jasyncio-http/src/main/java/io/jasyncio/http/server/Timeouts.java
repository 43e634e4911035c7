package io.jasyncio.http.server;

import java.time.Duration;

/** Durations as the loop's clock counts them (seconds, as a double). */
final class Timeouts {
    private Timeouts() {
    }

    static double seconds(Duration d) {
        return d.getSeconds() + d.getNano() / 1e9;
    }

    /** {@code seconds} as a Duration (to the nanosecond; NaN is zero, which no timeout accepts). */
    static Duration duration(double seconds) {
        return Duration.ofNanos((long) (seconds * 1e9));
    }
}
