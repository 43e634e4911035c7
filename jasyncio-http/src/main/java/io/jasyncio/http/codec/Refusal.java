package io.jasyncio.http.codec;

import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpResponse;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The response that refuses a request (malformed, over a limit, timed out, the server busy): its
 * status, a short text body, {@code Connection: close} (the connection closes after it), and for
 * 503 {@code Retry-After: 1} (the server is busy, not the request bad: come back soon).
 */
public final class Refusal {
    private static final byte[] CONNECTION_CLOSE = "Connection: close\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RETRY_AFTER = "Retry-After: 1\r\n".getBytes(StandardCharsets.US_ASCII);

    private Refusal() {
    }

    /** The refusal's bytes; {@code dateLine} is the {@code Date} field's line, CRLF included. */
    public static byte[] encode(HttpParseException refused, byte[] dateLine) {
        HttpResponse answer = HttpResponse.text(refused.status(), refused.status() + " " + refused.reason() + "\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        out.writeBytes(answer.encodedHead());
        out.writeBytes(CONNECTION_CLOSE);
        if (refused.status() == 503) {
            out.writeBytes(RETRY_AFTER);
        }
        out.writeBytes(dateLine);
        out.write('\r');
        out.write('\n');
        out.writeBytes(answer.body());
        return out.toByteArray();
    }
}
