package io.jasyncio.http.server;

import java.time.Duration;

/**
 * A floor on the rate a client sends a request body or takes a response, as Kestrel's
 * {@code MinDataRate}: once {@code gracePeriod} has passed, the bytes moved divided by the time
 * spent moving them must stay at or above {@code bytesPerSecond}, or the connection is closed.
 * The time counted is only the time the client is the one holding things up: not while the
 * server itself stops reading (a handler not reading its body), nor while no response bytes wait.
 *
 * @param bytesPerSecond the floor, bytes per second (positive)
 * @param gracePeriod    how long a transfer may run before the floor applies (a slow start, a TCP ramp-up)
 */
public record MinDataRate(double bytesPerSecond, Duration gracePeriod) {
    public MinDataRate {
        if (!(bytesPerSecond > 0) || gracePeriod.isNegative()) {
            throw new IllegalArgumentException("a data rate floor needs a positive rate and a grace period >= 0: "
                    + bytesPerSecond + " B/s, " + gracePeriod);
        }
    }

    /** {@code bytesPerSecond} after {@code grace}. */
    public static MinDataRate of(double bytesPerSecond, Duration grace) {
        return new MinDataRate(bytesPerSecond, grace);
    }

    @Override
    public String toString() {
        return bytesPerSecond + " B/s after " + Timeouts.seconds(gracePeriod) + " s";
    }
}
