package io.jasyncio.http;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Responses changed by copying, the typed helpers, and the request's decoded accessors. */
class ResponseCopiesAndRequestAccessorsTest {

    @Test
    void withHeaderCopiesAndLeavesTheOriginalAsItWas() {
        HttpResponse base = HttpResponse.text(405, "no");
        HttpResponse allowed = base.withHeader("Allow", "GET").withAddedHeader("Set-Cookie", "a=1").withAddedHeader("Set-Cookie", "b=2");
        assertEquals("GET", allowed.header("Allow"));
        assertEquals(List.of("a=1", "b=2"), allowed.headers().getAll("Set-Cookie"));
        assertNull(base.header("Allow"));
        assertEquals("text/plain; charset=utf-8", allowed.header("content-type"));
        assertEquals("application/json", allowed.withHeader("Content-Type", "application/json").header("Content-Type"));
        assertNull(allowed.withoutHeader("set-cookie").header("Set-Cookie"));
        assertTrue(allowed.headers().isFrozen());
        String head = new String(allowed.encodedHead(), StandardCharsets.US_ASCII);
        assertTrue(head.startsWith("HTTP/1.1 405 Method Not Allowed\r\n"), head);
        assertTrue(head.contains("Allow: GET\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 2\r\n"), head);
        UnsupportedOperationException frozen = assertThrows(UnsupportedOperationException.class,
                () -> base.headers().set("Allow", "GET"));
        assertTrue(frozen.getMessage().contains("HttpResponse.withHeader"), "the message says what to do instead");
        assertThrows(IllegalArgumentException.class, () -> base.withHeader("Bad Name", "x"));
        assertThrows(IllegalArgumentException.class, () -> base.withHeader("X", "a\r\nInjected: 1"));
    }

    @Test
    void withStatusAndWithBody() {
        HttpResponse created = HttpResponse.json(200, "{}".getBytes(StandardCharsets.UTF_8)).withStatus(201);
        assertEquals(201, created.status());
        assertEquals("Created", created.reason());
        assertEquals("application/json", created.header("Content-Type"));
        HttpResponse own = new HttpResponse(200, "Fine", HttpVersion.HTTP_1_1, HttpHeaders.empty(), null).withStatus(202);
        assertEquals("Fine", own.reason(), "a reason of its own is kept");
        HttpResponse longer = created.withBody("[1,2]".getBytes(StandardCharsets.UTF_8));
        assertEquals("[1,2]", longer.bodyText());
        assertTrue(new String(longer.encodedHead(), StandardCharsets.US_ASCII).contains("Content-Length: 5\r\n"));
        assertThrows(IllegalArgumentException.class, () -> created.withStatus(99));
    }

    @Test
    void typedHelpersSetTheContentType() {
        byte[] bytes = {1, 2, 3};
        assertEquals("application/octet-stream", HttpResponse.bytes(200, bytes).header("Content-Type"));
        assertArrayEquals(bytes, HttpResponse.bytes(200, bytes).body());
        assertEquals("application/json", HttpResponse.json(200, bytes).header("Content-Type"));
    }

    @Test
    void queryParametersAreDecodedAndMultiValued() {
        HttpRequest r = new HttpRequest("GET", "/s?q=a+b%21&tag=x&tag=&flag&caf%C3%A9=%E2%82%AC&bad=%zz&=v", HttpHeaders.empty());
        assertEquals("a b!", r.queryParameter("q"));
        assertEquals(List.of("x", ""), r.queryParameters("tag"));
        assertEquals("", r.queryParameter("flag"));
        assertEquals("€", r.queryParameter("café"));
        assertEquals("%zz", r.queryParameter("bad"), "a bad escape stays as it is");
        assertEquals("v", r.queryParameter(""));
        assertNull(r.queryParameter("nope"));
        assertEquals(List.of(), r.queryParameters("nope"));
        assertEquals(List.of("q", "tag", "flag", "café", "bad", ""), List.copyOf(r.queryParameters().keySet()));
        assertEquals(r.queryParameters(), r.queryParameters());
        assertEquals(Map.of(), new HttpRequest("GET", "/s", HttpHeaders.empty()).queryParameters());
        assertEquals("\uFFFD", new HttpRequest("GET", "/s?x=%C3", HttpHeaders.empty()).queryParameter("x"), "not UTF-8");
    }

    @Test
    void decodedPathPathParametersAndHeaders() {
        HttpRequest r = new HttpRequest("GET", "/users/%31/a%2Fb?x=%31", HttpHeaders.of("Accept", "a", "accept", "b"));
        assertEquals("/users/1/a/b", r.decodedPath());
        assertEquals("/users/%31/a%2Fb", r.path());
        assertEquals(List.of("a", "b"), r.headers("ACCEPT"));
        assertEquals("a", r.header("Accept"));
        assertNull(r.pathParameter("id"));
        HttpRequest routed = r.withPathParameters(new String[]{"id", "rest"}, new String[]{"1", "a/b"});
        assertEquals("1", routed.pathParameter("id"));
        assertEquals(Map.of("id", "1", "rest", "a/b"), routed.pathParameters());
        assertEquals("1", routed.withBody(new byte[]{1}).pathParameter("id"), "a body keeps the parameters");
    }
}
