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
    double requestDeadline;
    final double requestTimeout;
    /** The response head's deadline. */
    double headDeadline = Double.NaN;
    /**
     * Loop time a byte last came from the server (or the server last took request bytes, or the
     * request was written), for the read-idle timeout.
     */
    double heardAt = Double.NaN;
    /** The request is being written: the read-idle clock runs only while the server reads none of it. */
    private boolean sending;

    /** An exchange that must end by loop time {@code deadline}, {@code timeout} seconds after it began (NaN: none). */
    ClientExchange(Future<HttpClientResponse> head, String describe, double timeout, double deadline) {
        this.head = head;
        this.describe = describe;
        this.requestTimeout = timeout;
        this.requestDeadline = deadline;
    }

    /** The request begins to be written at {@code now}: a server that reads none of it is silent too. */
    void requestStarted(double now, HttpClientOptions options) {
        sending = true;
        if (!Double.isNaN(options.readIdleTimeout())) {
            heardAt = now;
        }
    }

    /** The request was all written at {@code now}: the response head's and the read-idle deadlines run from here. */
    void requestWritten(double now, HttpClientOptions options) {
        sending = false;
        if (!head.isDone() && !Double.isNaN(options.responseHeadersTimeout())) {
            headDeadline = now + options.responseHeadersTimeout();
        }
        if (!Double.isNaN(options.readIdleTimeout())) {
            heardAt = now;
        }
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

    /** Ends this exchange with {@code error}: its head, or its body once the head came, sees it. */
    void fail(Throwable error) {
        clearDeadlines();
        wakeContinueWaiter();
        if (!head.isDone()) {
            head.setException(error);
        } else if (body != null) {
            body.fail(error);
        }
    }

    /**
     * The timeout that fired by loop time {@code now}, or null: the whole request's, the response
     * head's (the {@code options}' timeouts), or the read-idle one of {@code origin}, which runs
     * neither while the socket is {@code pausedForReader} (the reader's pace, not the server's
     * silence) nor, while the request is written, unless the server stopped taking it
     * ({@code writePaused}: the client's pace otherwise).
     */
    HttpTimeoutException expired(double now, boolean pausedForReader, boolean writePaused, HttpClientOptions options,
                                 Origin origin) {
        double headTimeout = options.responseHeadersTimeout();
        double readIdle = options.readIdleTimeout();
        if (!Double.isNaN(heardAt) && (sending ? !writePaused : pausedForReader)) {
            heardAt = now;
        }
        if (requestDeadline <= now) {
            return new HttpTimeoutException(HttpTimeoutException.Phase.REQUEST, describe + " took longer than "
                    + requestTimeout + " s (requestTimeout)");
        }
        if (headDeadline <= now && !head.isDone()) {
            return new HttpTimeoutException(HttpTimeoutException.Phase.RESPONSE_HEADERS, "no response head to "
                    + describe + " within " + headTimeout + " s (responseHeadersTimeout)");
        }
        if (!Double.isNaN(readIdle) && heardAt + readIdle <= now && sending) {
            return new HttpTimeoutException(HttpTimeoutException.Phase.REQUEST, origin + " read nothing of "
                    + describe + " for " + readIdle + " s (readIdleTimeout)");
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
        double next = earlier(Double.POSITIVE_INFINITY, requestDeadline);
        next = head.isDone() ? next : earlier(next, headDeadline);
        return earlier(next, heardAt + readIdle);
    }

    /** The earlier of {@code next} and {@code due} (NaN: no deadline). */
    private static double earlier(double next, double due) {
        return Double.isNaN(due) ? next : Math.min(next, due);
    }
}
