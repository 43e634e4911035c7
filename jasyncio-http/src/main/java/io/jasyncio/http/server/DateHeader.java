package io.jasyncio.http.server;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The {@code Date} field line (RFC 9110 §6.6.1, IMF-fixdate), formatted at most once per second
 * and shared by every loop: a response copies the cached bytes.
 */
final class DateHeader {
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", java.util.Locale.ROOT).withZone(ZoneOffset.UTC);

    private record Cached(long second, byte[] line) {
    }

    private static volatile Cached cached = format(System.currentTimeMillis() / 1000);

    private DateHeader() {
    }

    /** {@code Date: Wed, 02 Dec 2026 02:22:16 GMT\r\n} for this second. Do not change the array. */
    static byte[] line() {
        long second = System.currentTimeMillis() / 1000;
        Cached c = cached;
        if (c.second != second) {
            c = format(second);
            cached = c;
        }
        return c.line;
    }

    private static Cached format(long second) {
        String line = "Date: " + IMF_FIXDATE.format(Instant.ofEpochSecond(second)) + "\r\n";
        return new Cached(second, line.getBytes(StandardCharsets.US_ASCII));
    }
}
