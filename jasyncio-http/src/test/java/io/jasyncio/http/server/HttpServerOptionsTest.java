package io.jasyncio.http.server;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Every server timeout can be set in seconds or as a {@link Duration}, to the same value. */
class HttpServerOptionsTest {
    private static final HttpServerOptions D = HttpServerOptions.defaults();

    @Test
    void durationOverloadsSetTheSecondsComponents() {
        assertEquals(D.withHeaderTimeout(1.5), D.withHeaderTimeout(Duration.ofMillis(1500)));
        assertEquals(1.5, D.withHeaderTimeout(Duration.ofMillis(1500)).headerTimeout());
        assertEquals(0.25, D.withIdleTimeout(Duration.ofMillis(250)).idleTimeout());
        assertEquals(7.0, D.withBodyReadTimeout(Duration.ofSeconds(7)).bodyReadTimeout());
        assertEquals(90.0, D.withSendTimeout(Duration.ofMinutes(1).plusSeconds(30)).sendTimeout());
        HttpServerOptions linger = D.withLinger(Duration.ofMillis(500), 4096);
        assertEquals(0.5, linger.lingerTimeout());
        assertEquals(4096, linger.lingerBytes());
        assertEquals(D.withLinger(0.5, 4096), linger);
    }

    @Test
    void secondsOverloadSetsTheRequestTimeout() {
        assertEquals(Duration.ofMillis(2500), D.withRequestTimeout(2.5).requestTimeout());
        assertEquals(D.withRequestTimeout(Duration.ofSeconds(45)), D.withRequestTimeout(45));
    }

    @Test
    void eitherUnitRefusesATimeoutThatIsNotPositive() {
        assertThrows(IllegalArgumentException.class, () -> D.withIdleTimeout(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> D.withSendTimeout(Duration.ofSeconds(-1)));
        assertThrows(IllegalArgumentException.class, () -> D.withRequestTimeout(0));
        assertThrows(IllegalArgumentException.class, () -> D.withRequestTimeout(Double.NaN));
    }
}
