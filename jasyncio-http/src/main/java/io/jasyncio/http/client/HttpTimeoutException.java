package io.jasyncio.http.client;

import java.io.IOException;

/** An HTTP exchange ran out of time; {@link #phase()} says which of the client's timeouts fired. */
public final class HttpTimeoutException extends IOException {
    /** The timeout that fired (see {@link HttpClientOptions}). */
    public enum Phase {
        CONNECT, RESPONSE_HEADERS, REQUEST
    }

    private final Phase phase;

    HttpTimeoutException(Phase phase, String message) {
        super(message);
        this.phase = phase;
    }

    public Phase phase() {
        return phase;
    }
}
