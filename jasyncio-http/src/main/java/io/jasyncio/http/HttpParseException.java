package io.jasyncio.http;

import java.io.IOException;

/**
 * A message the parser refuses, with the status a server answers it with (400, 408, 413, 414,
 * 431, 501, 505) and the reason. The connection cannot be trusted past the refused bytes: the
 * server answers and closes, the client closes.
 */
public final class HttpParseException extends IOException {
    private final int status;

    public HttpParseException(int status, String reason) {
        super(reason);
        this.status = status;
    }

    /** The status a server answers this refusal with. */
    public int status() {
        return status;
    }

    /** Why the message was refused (also the message of the exception). */
    public String reason() {
        return getMessage();
    }

    @Override
    public String toString() {
        return "HttpParseException: " + status + " " + getMessage();
    }
}
