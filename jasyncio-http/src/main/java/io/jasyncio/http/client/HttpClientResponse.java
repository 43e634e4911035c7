package io.jasyncio.http.client;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.HttpVersion;

/**
 * A response as soon as its head arrived: status, reason, version and header fields, with the
 * body still to read ({@link #body()}, flow-controlled). Read the body to its end or close it:
 * until then the connection belongs to this response.
 */
public final class HttpClientResponse implements AutoCloseable {
    private final HttpResponse head;
    private final ResponseBody body;

    HttpClientResponse(HttpResponse head, ResponseBody body) {
        this.head = head;
        this.body = body;
    }

    public int status() {
        return head.status();
    }

    public String reason() {
        return head.reason();
    }

    public HttpVersion version() {
        return head.version();
    }

    public HttpHeaders headers() {
        return head.headers();
    }

    /** The first value of the named header field (case-insensitive), or null. */
    public String header(String name) {
        return head.headers().get(name);
    }

    public ResponseBody body() {
        return body;
    }

    /**
     * The response's trailer fields (a chunked body's, RFC 9112 §7.1.2; empty when none), once
     * the body was read to its end: {@link ResponseBody#trailers()}.
     */
    public HttpHeaders trailers() {
        return body.trailers();
    }

    /** Coroutine: the whole response, its body read to the end. */
    public HttpResponse readFully() throws java.io.IOException {
        byte[] bytes = body.readAll();
        return new HttpResponse(head.status(), head.reason(), head.version(), head.headers(), bytes);
    }

    /** Closes the body ({@link ResponseBody#close()}). */
    @Override
    public void close() {
        body.close();
    }

    @Override
    public String toString() {
        return head.version() + " " + head.status() + " " + head.reason();
    }
}
