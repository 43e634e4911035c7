package io.jasyncio.http.server;

/**
 * Measures one transfer against a {@link MinDataRate}: bytes moved over the time counted, the
 * clock stopped while the peer is not the one holding the transfer up. No I/O, no clock of its
 * own: the caller passes the loop's time.
 */
final class RateMeter {
    private final double bytesPerSecond;
    private final double graceSeconds;
    /** Time counted before the current stretch. */
    private double counted;
    /** When the current counted stretch began; NaN while the clock is stopped. */
    private double since = Double.NaN;
    private long bytes;
    private boolean active;

    RateMeter(MinDataRate floor) {
        this.bytesPerSecond = floor.bytesPerSecond();
        this.graceSeconds = Timeouts.seconds(floor.gracePeriod());
    }

    /** A transfer begins at {@code now}, its clock running. */
    void start(double now) {
        active = true;
        counted = 0;
        bytes = 0;
        since = now;
    }

    /** The transfer ended (or was given up): nothing more is measured until the next {@link #start}. */
    void stop() {
        active = false;
        since = Double.NaN;
    }

    boolean isActive() {
        return active;
    }

    /** The peer is not holding the transfer up from {@code now} on (we stopped reading it, or have nothing to send). */
    void pause(double now) {
        if (active && !Double.isNaN(since)) {
            counted += now - since;
            since = Double.NaN;
        }
    }

    /** The peer is the one the transfer waits on again, from {@code now}. */
    void resume(double now) {
        if (active && Double.isNaN(since)) {
            since = now;
        }
    }

    void add(long n) {
        bytes += n;
    }

    /** The time counted up to {@code now}. */
    double elapsed(double now) {
        return counted + (Double.isNaN(since) ? 0 : now - since);
    }

    /** Whether, past its grace period, the transfer has moved fewer bytes than the floor asks for the time counted. */
    boolean isBelowFloor(double now) {
        if (!active) {
            return false;
        }
        double elapsed = elapsed(now);
        return elapsed > graceSeconds && bytes < bytesPerSecond * elapsed;
    }

    /** What {@link #isBelowFloor} found, for a message: the rate measured. */
    String describe(double now) {
        double elapsed = elapsed(now);
        return bytes + " bytes in " + String.format(java.util.Locale.ROOT, "%.1f", elapsed) + " s, under the floor of "
                + bytesPerSecond + " B/s";
    }
}
