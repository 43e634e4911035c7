package io.jasyncio.http.codec;

/**
 * Measures one transfer against a {@link RateFloor}: bytes moved over the time counted, the
 * clock stopped while the peer is not the one holding the transfer up (Kestrel's
 * {@code MinDataRate} rule). No I/O, no clock of its own: the caller passes the loop's time.
 */
public final class RateMeter {
    private final double bytesPerSecond;
    private final double graceSeconds;
    /** Time counted before the current stretch. */
    private double counted;
    /** When the current counted stretch began; NaN while the clock is stopped. */
    private double since = Double.NaN;
    private long bytes;
    private boolean active;

    public RateMeter(RateFloor floor) {
        this.bytesPerSecond = floor.bytesPerSecond();
        this.graceSeconds = floor.graceSeconds();
    }

    /** A transfer begins at {@code now}, its clock running. */
    public void start(double now) {
        active = true;
        counted = 0;
        bytes = 0;
        since = now;
    }

    /** The transfer ended (or was given up): nothing more is measured until the next {@link #start}. */
    public void stop() {
        active = false;
        since = Double.NaN;
    }

    public boolean isActive() {
        return active;
    }

    /** The peer is not holding the transfer up from {@code now} on (we stopped reading it, or have nothing to send). */
    public void pause(double now) {
        if (active && !Double.isNaN(since)) {
            counted += now - since;
            since = Double.NaN;
        }
    }

    /** The peer is the one the transfer waits on again, from {@code now}. */
    public void resume(double now) {
        if (active && Double.isNaN(since)) {
            since = now;
        }
    }

    public void add(long n) {
        bytes += n;
    }

    /** The time counted up to {@code now}. */
    private double elapsed(double now) {
        return counted + (Double.isNaN(since) ? 0 : now - since);
    }

    /** Whether, past its grace period, the transfer has moved fewer bytes than the floor asks for the time counted. */
    public boolean isBelowFloor(double now) {
        if (!active) {
            return false;
        }
        double elapsed = elapsed(now);
        return elapsed > graceSeconds && bytes < bytesPerSecond * elapsed;
    }

    /** What {@link #isBelowFloor} found, for a message: the rate measured. */
    public String describe(double now) {
        double elapsed = elapsed(now);
        return bytes + " bytes in " + String.format(java.util.Locale.ROOT, "%.1f", elapsed) + " s, under the floor of "
                + bytesPerSecond + " B/s";
    }
}
