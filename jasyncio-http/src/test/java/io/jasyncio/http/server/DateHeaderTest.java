package io.jasyncio.http.server;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Date line is IMF-fixdate and formatted once per second: responses in one second share its bytes. */
class DateHeaderTest {
    @Test
    void formattedOncePerSecond() {
        for (int attempt = 0; attempt < 100; attempt++) {
            long second = System.currentTimeMillis() / 1000;
            byte[] first = DateHeader.line();
            byte[] again = DateHeader.line();
            if (System.currentTimeMillis() / 1000 != second) {
                continue; // the second turned between the two: try again
            }
            assertSame(first, again);
            String line = new String(first, StandardCharsets.US_ASCII);
            assertTrue(line.startsWith("Date: ") && line.endsWith("\r\n"), line);
            ZonedDateTime parsed = ZonedDateTime.parse(line.substring(6, line.length() - 2), DateTimeFormatter.RFC_1123_DATE_TIME);
            assertTrue(Math.abs(parsed.toEpochSecond() - second) <= 1, line);
            assertEquals(29, line.length() - 8, "IMF-fixdate is 29 characters: " + line);
            return;
        }
        throw new AssertionError("the second kept turning");
    }
}
