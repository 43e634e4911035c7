package io.jasyncio.http.client;

import io.jasyncio.loop.Future;

/**
 * One request and its response on a {@link ClientConnection}: what the caller waits for (the
 * response head), the body once it began, the wait for 100 (Continue), and the exchange's
 * deadlines as loop times (NaN: none), which the pool's sweep checks: no timer per request.
 */
final class ClientExchange {
    final Future<HttpClientResponse> head;
    /** How the request reads in messages. */
    final String describe;
    ResponseBody body;
    /** Waits, with Expect: 100-continue, for the 100, a final response, or the timeout. */
    Future<Void> continueWaiter;
    /** The whole exchange's deadline, and its timeout in seconds (for the message). */
    double requestDeadline = Double.NaN;
    double requestTimeout = Double.NaN;
    /** The response head's deadline. */
    double headDeadline = Double.NaN;
    /** Loop time a byte last came from the server (or the request was written), for the read-idle timeout. */
    double heardAt = Double.NaN;

    ClientExchange(Future<HttpClientResponse> head, String describe) {
        this.head = head;
        this.describe = describe;
    }

    void clearDeadlines() {
        requestDeadline = Double.NaN;
        headDeadline = Double.NaN;
        heardAt = Double.NaN;
    }

    /** Ends the wait for 100 (Continue), if one is under way. */
    void wakeContinueWaiter() {
        Future<Void> w = continueWaiter;
        if (w != null && !w.isDone()) {
            w.setResult(null);
        }
    }

    /**
     * The timeout that fired by loop time {@code now}, or null: the whole request's, the response
     * head's, or the read-idle one ({@code readIdle} seconds, NaN: none) of {@code origin}.
     */
    HttpTimeoutException expired(double now, double headTimeout, double readIdle, Origin origin) {
        if (requestDeadline <= now) {
            return new HttpTimeoutException(HttpTimeoutException.Phase.REQUEST, describe + " took longer than "
                    + requestTimeout + " s (requestTimeout)");
        }
        if (headDeadline <= now && !head.isDone()) {
            return new HttpTimeoutException(HttpTimeoutException.Phase.RESPONSE_HEADERS, "no response head to "
                    + describe + " within " + headTimeout + " s (responseHeadersTimeout)");
        }
        if (!Double.isNaN(readIdle) && heardAt + readIdle <= now) {
            // No phase of its own in HttpTimeoutException: the whole exchange could not go on.
            return new HttpTimeoutException(head.isDone() ? HttpTimeoutException.Phase.REQUEST
                    : HttpTimeoutException.Phase.RESPONSE_HEADERS, "nothing came from " + origin + " for "
                    + readIdle + " s in the response to " + describe + " (readIdleTimeout)");
        }
        return null;
    }

    /** The earliest deadline still ahead ({@code +Infinity}: none), with a read-idle timeout of {@code readIdle} s. */
    double nextDeadline(double readIdle) {
        double next = Double.POSITIVE_INFINITY;
        for (double due : new double[]{requestDeadline, head.isDone() ? Double.NaN : headDeadline, heardAt + readIdle}) {
            if (!Double.isNaN(due)) {
                next = Math.min(next, due);
            }
        }
        return next;
    }
}
