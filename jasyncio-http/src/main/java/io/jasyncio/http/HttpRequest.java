package io.jasyncio.http;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A request: its method, target (as sent: origin-form {@code /path?query}, absolute-form,
 * authority-form or {@code *}), version, header fields and, for handlers that take it whole, its
 * body. Immutable but for the header fields of a request being built.
 */
public final class HttpRequest {
    private static final byte[] NO_BODY = new byte[0];

    private final String method;
    private final String target;
    private final HttpVersion version;
    private final HttpHeaders headers;
    private final byte[] body;

    public HttpRequest(String method, String target, HttpVersion version, HttpHeaders headers, byte[] body) {
        this.method = Objects.requireNonNull(method, "method");
        this.target = Objects.requireNonNull(target, "target");
        this.version = Objects.requireNonNull(version, "version");
        this.headers = Objects.requireNonNull(headers, "headers");
        this.body = body == null ? NO_BODY : body;
    }

    /** An HTTP/1.1 request without a body. */
    public HttpRequest(String method, String target, HttpHeaders headers) {
        this(method, target, HttpVersion.HTTP_1_1, headers, NO_BODY);
    }

    public String method() {
        return method;
    }

    public String target() {
        return target;
    }

    /** The target's path: up to its {@code ?} (the whole target for the other forms). */
    public String path() {
        int q = target.indexOf('?');
        return q < 0 ? target : target.substring(0, q);
    }

    /** The target's query (after {@code ?}), or null. */
    public String query() {
        int q = target.indexOf('?');
        return q < 0 ? null : target.substring(q + 1);
    }

    public HttpVersion version() {
        return version;
    }

    public HttpHeaders headers() {
        return headers;
    }

    /** The first value of header field {@code name}, or null. */
    public String header(String name) {
        return headers.get(name);
    }

    /** The body (empty when none, or when a streaming handler reads it instead). Not copied: do not change it. */
    public byte[] body() {
        return body;
    }

    /** The body decoded as UTF-8. */
    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** The same request with {@code body}. */
    public HttpRequest withBody(byte[] body) {
        return new HttpRequest(method, target, version, headers, body);
    }

    /**
     * Whether the connection may carry another request after this one (RFC 9112 §9.3): HTTP/1.1
     * unless {@code Connection: close}; HTTP/1.0 only with {@code Connection: keep-alive}.
     */
    public boolean keepAlive() {
        return version == HttpVersion.HTTP_1_1
                ? !headers.containsToken("Connection", "close")
                : headers.containsToken("Connection", "keep-alive") && !headers.containsToken("Connection", "close");
    }

    /** Whether the client waits for a 100 (Continue) before it sends the body (RFC 9110 §10.1.1). */
    public boolean expectsContinue() {
        String expect = headers.get("Expect");
        return expect != null && expect.equalsIgnoreCase("100-continue") && version == HttpVersion.HTTP_1_1;
    }

    @Override
    public String toString() {
        return method + " " + target + " " + version + " " + headers + (body.length == 0 ? "" : " +" + body.length + " bytes");
    }
}
