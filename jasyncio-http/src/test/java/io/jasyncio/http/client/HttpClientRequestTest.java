package io.jasyncio.http.client;

import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What a request accepts before any connection is made, and the target and Host it sends. */
class HttpClientRequestTest {

    @Test
    void theBodyAloneFramesTheRequest() {
        HttpClientRequest get = HttpClientRequest.get("http://127.0.0.1/");
        assertThrows(IllegalArgumentException.class, () -> get.withHeader("Content-Length", "5"));
        assertThrows(IllegalArgumentException.class, () -> get.withHeader("transfer-encoding", "chunked"));
    }

    @Test
    void headerNamesAndValuesCannotSplitTheHead() {
        HttpClientRequest get = HttpClientRequest.get("http://127.0.0.1/");
        assertThrows(IllegalArgumentException.class, () -> get.withHeader("X-A", "one\r\nX-B: two"));
        assertThrows(IllegalArgumentException.class, () -> get.withHeader("X A", "1"));
        assertThrows(IllegalArgumentException.class, () -> HttpClientRequest.of("GET /x", URI.create("http://h/")));
    }

    @Test
    void onlyHttpAndHttpsWithAHost() {
        assertThrows(IllegalArgumentException.class, () -> HttpClientRequest.get("ftp://127.0.0.1/"));
        assertThrows(IllegalArgumentException.class, () -> HttpClientRequest.get("http:///path"));
    }

    @Test
    void theTargetIsTheOriginFormAndTheHostOmitsADefaultPort() {
        assertEquals("/", HttpClientRequest.get("http://example.test").target());
        assertEquals("/a%20b?q=1&r", HttpClientRequest.get("http://example.test/a%20b?q=1&r").target());
        assertEquals("example.test", Origin.of(URI.create("https://Example.test:443/")).hostHeader());
        assertEquals("example.test:8443", Origin.of(URI.create("https://example.test:8443/")).hostHeader());
        assertEquals("[::1]:8080", Origin.of(URI.create("http://[::1]:8080/")).hostHeader());
    }
}
