package io.jasyncio.http.client;

/**
 * An HTTP exchange ran out of time; {@link #phase()} says which of the client's timeouts fired.
 * It extends the JDK's {@link java.net.http.HttpTimeoutException}, so a {@code catch} written
 * against either name catches it: an IDE that imports the JDK's class by mistake still compiles
 * to a catch that fires (both are {@code IOException}s, so the wrong one would otherwise compile
 * and silently miss).
 */
public final class HttpTimeoutException extends java.net.http.HttpTimeoutException {
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
