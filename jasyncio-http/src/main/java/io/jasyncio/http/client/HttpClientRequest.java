package io.jasyncio.http.client;

import io.jasyncio.http.HttpHeaders;

import java.net.URI;
import java.util.Objects;

/**
 * One request: the method, the absolute {@code http} or {@code https} URI, header fields in the
 * order given and a body. Immutable: each {@code with...} returns a new request. The client adds
 * {@code Host} unless the request sets it, and {@code Content-Length} or {@code Transfer-Encoding}
 * from the body (a request may not set those itself).
 */
public final class HttpClientRequest {
    private final String method;
    private final URI uri;
    private final HttpHeaders headers;
    private final RequestBody body;
    /** This request's whole-exchange timeout in seconds (NaN: none), or null for the client's. */
    private final Double timeout;

    private HttpClientRequest(String method, URI uri, HttpHeaders headers, RequestBody body, Double timeout) {
        this.method = method;
        this.uri = uri;
        this.headers = headers;
        this.body = body;
        this.timeout = timeout;
    }

    public static HttpClientRequest of(String method, URI uri) {
        Objects.requireNonNull(method, "method");
        if (method.isEmpty() || !method.chars().allMatch(HttpClientRequest::isTokenChar)) {
            throw new IllegalArgumentException("not a method token: '" + method + "'");
        }
        Origin.of(uri); // rejects what the client cannot reach
        return new HttpClientRequest(method, uri, HttpHeaders.empty(), RequestBody.empty(), null);
    }

    public static HttpClientRequest get(String uri) {
        return of("GET", URI.create(uri));
    }

    public static HttpClientRequest post(String uri, RequestBody body) {
        return of("POST", URI.create(uri)).withBody(body);
    }

    /** Adds a header field (a repeated name adds another field; names and values are checked as HttpHeaders does). */
    public HttpClientRequest withHeader(String name, String value) {
        if (name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")) {
            throw new IllegalArgumentException("the body frames the request: " + name + " comes from its RequestBody");
        }
        HttpHeaders more = headers.copy().add(name, value);
        return new HttpClientRequest(method, uri, more.frozenCopy(), body, timeout);
    }

    public HttpClientRequest withBody(RequestBody value) {
        return new HttpClientRequest(method, uri, headers, Objects.requireNonNull(value, "body"), timeout);
    }

    /**
     * This request's own whole-exchange timeout in seconds, instead of the client's
     * {@link HttpClientOptions#requestTimeout()} (NaN: none).
     */
    public HttpClientRequest withTimeout(double seconds) {
        if (!Double.isNaN(seconds) && !(seconds > 0)) {
            throw new IllegalArgumentException("timeout must be a positive number of seconds (NaN: none), got " + seconds);
        }
        return new HttpClientRequest(method, uri, headers, body, seconds);
    }

    /** The whole-exchange timeout in effect: this request's own, else {@code clientDefault}. */
    double timeoutOr(double clientDefault) {
        return timeout != null ? timeout : clientDefault;
    }

    public String method() {
        return method;
    }

    public URI uri() {
        return uri;
    }

    public RequestBody body() {
        return body;
    }

    /** The header fields as given (frozen). */
    public HttpHeaders headers() {
        return headers;
    }

    /** The request target in origin form (RFC 9112 3.2.1): the path (at least "/") and query. */
    String target() {
        String path = uri.getRawPath();
        String query = uri.getRawQuery();
        String target = path == null || path.isEmpty() ? "/" : path;
        return query == null ? target : target + "?" + query;
    }

    /** RFC 9110 5.6.2 tchar. */
    static boolean isTokenChar(int c) {
        return c > 0x20 && c < 0x7f && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
    }

    @Override
    public String toString() {
        return method + " " + uri;
    }
}
