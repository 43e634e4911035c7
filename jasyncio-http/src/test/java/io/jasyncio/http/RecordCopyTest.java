package io.jasyncio.http;

import io.jasyncio.http.client.HttpClientOptions;
import io.jasyncio.http.server.HttpServerOptions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The options records' with-methods, through RecordCopy: one component changed, the checks kept. */
class RecordCopyTest {
    @Test
    void oneComponentChangesAndTheRestStays() {
        HttpLimits d = HttpLimits.defaults();
        HttpLimits changed = d.withMaxBodySize(123).withMaxHeaderCount(7);
        assertEquals(new HttpLimits(d.maxStartLineLength(), d.maxHeaderBytes(), 7, 123, d.maxChunkLineLength()), changed);
        HttpServerOptions s = HttpServerOptions.defaults().withHeaderTimeout(0.5).withLimits(changed);
        assertEquals(0.5, s.headerTimeout());
        assertEquals(changed, s.limits());
        assertEquals(HttpServerOptions.defaults().idleTimeout(), s.idleTimeout());
        HttpClientOptions c = HttpClientOptions.defaults().withTls(null).withBodyBufferBytes(99);
        assertNull(c.tls());
        assertEquals(99, c.bodyBufferBytes());
        assertEquals(HttpClientOptions.defaults().maxIdlePerOrigin(), c.maxIdlePerOrigin());
    }

    @Test
    void theCanonicalConstructorStillChecks() {
        assertThrows(IllegalArgumentException.class, () -> HttpLimits.defaults().withMaxHeaderCount(0));
        assertThrows(IllegalArgumentException.class, () -> HttpServerOptions.defaults().withSendTimeout(-1));
        assertThrows(IllegalArgumentException.class, () -> HttpClientOptions.defaults().withMaxConnectionsPerOrigin(0));
    }
}
