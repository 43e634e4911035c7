package io.jasyncio.nativeio;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The pure parts of {@link LibC}: what epoll and poll(2) are given as their timeout. */
class LibCTest {
    @Test
    void timeoutsRoundUpToWholeMilliseconds() {
        assertEquals(0, LibC.timeoutMillis(0));
        assertEquals(-1, LibC.timeoutMillis(-1));
        assertEquals(1, LibC.timeoutMillis(1));
        assertEquals(1, LibC.timeoutMillis(1_000_000));
        assertEquals(2, LibC.timeoutMillis(1_000_001));
        assertEquals(50, LibC.timeoutMillis(50_000_000));
        assertEquals(Integer.MAX_VALUE, LibC.timeoutMillis(Long.MAX_VALUE / 2));
    }
}
