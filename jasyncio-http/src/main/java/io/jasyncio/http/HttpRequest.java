package io.jasyncio.http;


import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A request: its method, target (as sent: origin-form {@code /path?query}, absolute-form,
 * authority-form or {@code *}), version, header fields and, for handlers that take it whole, its
 * body. Immutable but for the header fields of a request being built. A router
 * ({@code io.jasyncio.http.server.routing.Router}) hands its handlers a copy that also carries the
 * path parameters its route matched ({@link #pathParameter}; the copy is a {@code RoutedRequest},
 * so a request the server parses carries no field for them). The query's parameters are decoded
 * when asked for, each time ({@link #queryParameter}).
 */
public sealed class HttpRequest permits RoutedRequest {
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

    /**
     * {@link #path()} percent-decoded as UTF-8 ({@code /users/%31} is {@code /users/1}). An
     * encoded {@code /} ({@code %2F}) decodes too, so split the raw path, not this one, to find
     * segments (a router does).
     */
    public String decodedPath() {
        return PercentDecoding.decode(path());
    }

    /**
     * The decoded value of path parameter {@code name} that the request's route matched
     * ({@code GET /users/{id}}: {@code pathParameter("id")}), or null if the route has none of that name.
     */
    public String pathParameter(String name) {
        return null; // a request with path parameters is a RoutedRequest
    }

    /** Every path parameter the route matched, by name in the pattern's order (empty without a route). */
    public Map<String, String> pathParameters() {
        return Map.of();
    }

    /**
     * The same request carrying path parameters: {@code values[i]} (decoded) of {@code names[i]}.
     * For routers; the arrays are kept, not copied.
     */
    public HttpRequest withPathParameters(String[] names, String[] values) {
        if (names.length != values.length) {
            throw new IllegalArgumentException(names.length + " names for " + values.length + " values");
        }
        return new RoutedRequest(method, target, version, headers, body, names, values);
    }

    /** The first value of query parameter {@code name} ({@code ?a=1&a=2}: {@code "1"}), or null; decoded at each call. */
    public String queryParameter(String name) {
        List<String> values = queryParameters().get(name);
        return values == null ? null : values.getFirst();
    }

    /** Every value of query parameter {@code name}, in order (empty if none). */
    public List<String> queryParameters(String name) {
        return queryParameters().getOrDefault(name, List.of());
    }

    /**
     * The query's parameters, names and values percent-decoded as UTF-8 with {@code +} a space
     * (as HTML forms send them), each name with its values in order; unmodifiable. {@code a} and
     * {@code a=} both give {@code a} an empty value. Decoded at each call (no field is kept for
     * it in every request): keep the map to ask it many times.
     */
    public Map<String, List<String>> queryParameters() {
        return PercentDecoding.parameters(query());
    }

    public HttpVersion version() {
        return version;
    }

    public HttpHeaders headers() {
        return headers;
    }

    /** The first value of header field {@code name} (case-insensitive), or null. */
    public String header(String name) {
        return headers.get(name);
    }

    /** Every value of header field {@code name} (case-insensitive), in order (empty if none). */
    public List<String> headers(String name) {
        return headers.getAll(name);
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
        // the rule of http.codec.ConnectionRules.keepsAlive, which http must not name (the codec names http)
        return !headers.containsToken("Connection", "close")
                && (version == HttpVersion.HTTP_1_1 || headers.containsToken("Connection", "keep-alive"));
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
