package io.jasyncio.http.codec;

/**
 * Whether a server connection's client keeps taking the response bytes that wait for it, without
 * I/O or a clock: the caller passes, on its sweep, the loop's time, the bytes its transport still
 * buffers and the bytes it has sent in all. Two rules: the send timeout (bytes wait and the client
 * took none of them for {@link ServerTimeouts#send} seconds: it stopped reading) and the response
 * rate floor (while bytes wait, the client takes them at the floor's rate after its grace period).
 */
public final class SendDeadlines {
    /** What {@link #check} found. */
    public enum Verdict {
        /** The client keeps up (or nothing waits for it). */
        OK,
        /** The client stopped reading: drop the connection ({@link #reason()} says why). */
        STALLED,
        /** The client reads below the floor: drop the connection ({@link #reason()} says why). */
        TOO_SLOW
    }

    private final ServerTimeouts timeouts;
    /** The bytes buffered at the last check, and when the client was last seen taking some. */
    private long lastBuffered;
    private double progressAt;
    /** The bytes the client had taken at the last check. */
    private long takenSeen;
    /** Made when response bytes first wait: most connections never need it. */
    private RateMeter rate;
    private String reason;

    public SendDeadlines(ServerTimeouts timeouts) {
        this.timeouts = timeouts;
    }

    /** The client took bytes at {@code now} (the connection opened, or the transport's buffer drained below its mark). */
    public void progressed(double now) {
        progressAt = now;
    }

    /**
     * The sweep at {@code now}: {@code buffered} response bytes wait in the transport, {@code sent}
     * were handed to it in all; {@code closed}: the connection is gone (nothing is dropped).
     */
    public Verdict check(double now, long buffered, long sent, boolean closed) {
        if (buffered == 0 || buffered < lastBuffered) {
            progressAt = now;
        }
        lastBuffered = buffered;
        if (closed) {
            return Verdict.OK;
        }
        if (buffered > 0 && now - progressAt >= timeouts.send()) {
            reason = "the client took none of " + buffered + " response bytes for " + timeouts.send()
                    + " s (it stopped reading)";
            return Verdict.STALLED;
        }
        RateFloor floor = timeouts.responseFloor();
        if (floor == null) {
            return Verdict.OK;
        }
        if (rate == null) {
            if (buffered == 0) {
                return Verdict.OK;
            }
            rate = new RateMeter(floor);
        }
        long taken = sent - buffered;
        if (buffered == 0) {
            rate.stop();
        } else if (!rate.isActive()) {
            rate.start(now);
        } else {
            rate.add(taken - takenSeen);
        }
        takenSeen = taken;
        if (!rate.isBelowFloor(now)) {
            return Verdict.OK;
        }
        reason = "the client took response bytes too slowly: " + rate.describe(now);
        rate.stop();
        return Verdict.TOO_SLOW;
    }

    /** Why the last {@link #check} did not find {@link Verdict#OK}. */
    public String reason() {
        return reason;
    }
}
