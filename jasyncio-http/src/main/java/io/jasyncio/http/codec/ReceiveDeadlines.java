package io.jasyncio.http.codec;

import io.jasyncio.http.HttpParseException;

/**
 * Which wait on the client a server connection times now, and what is due when it passes, without
 * I/O or a clock: the caller tells it what happened, with the loop's time, and asks
 * {@link #check} on its sweep. One timer runs at a time: idle (a kept connection waits for a
 * request), head (a request began: its head must end), body (a pause between two pieces of a
 * body), linger (a closing connection waits for the client's EOF). Beside it, while a request is
 * received, the whole-request deadline and the body's rate floor (a {@link RateMeter} whose clock
 * runs only while the server reads).
 */
public final class ReceiveDeadlines {
    /** What {@link #check} found due. */
    public enum Due {
        /** Nothing: no deadline passed. */
        NOTHING,
        /** The idle connection closes (gracefully). */
        CLOSE_IDLE,
        /** The lingering close ends: close now. */
        END_LINGER,
        /** The request is refused with {@link #refusal()} (408), and the connection closes. */
        REFUSE
    }

    private enum Timer { NONE, IDLE, HEAD, BODY, LINGER }

    private final ServerTimeouts timeouts;
    private Timer timer = Timer.NONE;
    private double deadline;
    /** When the request being received began (its first byte, or its head); NaN: none. */
    private double requestStartedAt = Double.NaN;
    /** The request body's rate against its floor; null: no floor, or no body asked for yet. */
    private RateMeter bodyRate;
    private HttpParseException refusal;

    public ReceiveDeadlines(ServerTimeouts timeouts) {
        this.timeouts = timeouts;
    }

    /** The connection waits for a request (it opened, or its last response is written). */
    public void idle(double now) {
        start(Timer.IDLE, now + timeouts.idle());
    }

    /** A request's first bytes were parsed (its head has not ended): its head's deadline runs, and the whole request's. */
    public void requestBegan(double now) {
        if (timer == Timer.IDLE) {
            start(Timer.HEAD, now + timeouts.head());
            requestStartedAt = now;
        }
    }

    /** The request head ended; with {@code hasBody}, the body's pauses are timed, else nothing until its response. */
    public void headArrived(double now, boolean hasBody) {
        if (!hasBody) {
            timer = Timer.NONE;
            return;
        }
        start(Timer.BODY, now + timeouts.bodyRead());
        if (Double.isNaN(requestStartedAt)) {
            requestStartedAt = now;
        }
    }

    /**
     * The client is asked for the body (or needs no asking): from {@code now} on it must send at the
     * floor's rate, counted only while the server reads ({@code readingPaused}: it does not now).
     */
    public void bodyRequested(double now, boolean readingPaused) {
        if (bodyRate == null && timeouts.requestBodyFloor() != null) {
            bodyRate = new RateMeter(timeouts.requestBodyFloor()); // made on the first body: an idle connection does without
        }
        if (bodyRate != null && !bodyRate.isActive()) {
            bodyRate.start(now);
            if (readingPaused) {
                bodyRate.pause(now);
            }
        }
    }

    /** {@code n} body bytes arrived: they count toward the floor, and the body's pause deadline starts again. */
    public void bodyArrived(double now, int n) {
        if (bodyRate != null) {
            bodyRate.add(n);
        }
        if (timer == Timer.BODY) {
            deadline = now + timeouts.bodyRead();
        }
    }

    /** The request ended: nothing is timed until its response is written. */
    public void requestComplete() {
        timer = Timer.NONE;
        requestStartedAt = Double.NaN;
        if (bodyRate != null) {
            bodyRate.stop();
        }
    }

    /** The server stopped ({@code reading} false) or resumed reading the socket: the body's rate counts only while it reads. */
    public void readingChanged(double now, boolean reading) {
        if (bodyRate != null && bodyRate.isActive()) {
            if (reading) {
                bodyRate.resume(now);
            } else {
                bodyRate.pause(now);
            }
        }
    }

    /** A lingering close began: it ends at the client's EOF or at the linger deadline. */
    public void linger(double now) {
        start(Timer.LINGER, now + timeouts.linger());
    }

    /** Nothing more is timed (the connection closes, or was handed over). */
    public void stop() {
        timer = Timer.NONE;
    }

    /**
     * What is due at {@code now}; {@code closing}: the connection is closing (only the linger
     * deadline still applies); {@code readingPaused}: the server is not reading (a body's pause is
     * then the server's, and its deadline moves on).
     */
    public Due check(double now, boolean closing, boolean readingPaused) {
        if (!closing && !Double.isNaN(requestStartedAt)) {
            if (now - requestStartedAt > timeouts.request()) {
                return refuse("the request did not arrive within " + timeouts.request() + " s");
            }
            if (bodyRate != null && bodyRate.isBelowFloor(now)) {
                String measured = bodyRate.describe(now);
                bodyRate.stop();
                return refuse("the request body came too slowly: " + measured);
            }
        }
        if (timer == Timer.NONE || now < deadline) {
            return Due.NOTHING;
        }
        if (timer == Timer.LINGER) {
            timer = Timer.NONE;
            return Due.END_LINGER;
        }
        if (closing) {
            return Due.NOTHING;
        }
        return switch (timer) {
            case IDLE -> Due.CLOSE_IDLE;
            case HEAD -> refuse("the request head did not arrive within " + timeouts.head() + " s");
            case BODY -> {
                if (readingPaused) {
                    deadline = now + timeouts.bodyRead(); // we hold the client back, not it us
                    yield Due.NOTHING;
                }
                yield refuse("the request body made no progress for " + timeouts.bodyRead() + " s");
            }
            case NONE, LINGER -> Due.NOTHING;
        };
    }

    /** The refusal the last {@link #check} returned {@link Due#REFUSE} for. */
    public HttpParseException refusal() {
        return refusal;
    }

    private Due refuse(String reason) {
        refusal = new HttpParseException(408, reason);
        return Due.REFUSE;
    }

    private void start(Timer kind, double at) {
        timer = kind;
        deadline = at;
    }
}
