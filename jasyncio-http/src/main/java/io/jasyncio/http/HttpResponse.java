package io.jasyncio.http;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A response: status, reason phrase, version, header fields (frozen) and a whole body. Immutable,
 * so one response may answer many requests: a server encodes its head once ({@link #encodedHead()}).
 * Change one by copying it: {@code HttpResponse.text(405, "no").withHeader("Allow", "GET")}.
 */
public final class HttpResponse {
    private static final byte[] NO_BODY = new byte[0];

    private final int status;
    private final String reason;
    private final HttpVersion version;
    private final HttpHeaders headers;
    private final byte[] body;
    /** {@link #encodedHead()}, computed on first use (a race computes the same bytes twice). */
    private byte[] encodedHead;

    public HttpResponse(int status, String reason, HttpVersion version, HttpHeaders headers, byte[] body) {
        if (status < 100 || status > 999) {
            throw new IllegalArgumentException("status must have three digits: " + status);
        }
        this.status = status;
        this.reason = Objects.requireNonNull(reason, "reason");
        if (!HttpSyntax.isFieldValue(reason)) {
            throw new IllegalArgumentException("reason phrase with a control character: " + reason);
        }
        this.version = Objects.requireNonNull(version, "version");
        this.headers = headers.frozenCopy();
        this.body = body == null ? NO_BODY : body;
    }

    /** A copy's: the checked fields of {@code from} with other headers, status or body. */
    private HttpResponse(HttpResponse from, int status, String reason, HttpHeaders frozenHeaders, byte[] body) {
        this.status = status;
        this.reason = reason;
        this.version = from.version;
        this.headers = frozenHeaders;
        this.body = body;
    }

    /** An HTTP/1.1 response with the standard reason phrase. */
    public HttpResponse(int status, HttpHeaders headers, byte[] body) {
        this(status, HttpStatus.reasonPhrase(status), HttpVersion.HTTP_1_1, headers, body);
    }

    /** {@code status} with a body of {@code contentType}. */
    public static HttpResponse of(int status, String contentType, byte[] body) {
        return new HttpResponse(status, HttpHeaders.of("Content-Type", contentType), body);
    }

    /** {@code status} with a UTF-8 text/plain body. */
    public static HttpResponse text(int status, String text) {
        return of(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code status} with a body of bytes: {@code application/octet-stream}. */
    public static HttpResponse bytes(int status, byte[] body) {
        return of(status, "application/octet-stream", body);
    }

    /**
     * {@code status} with a JSON body given as its UTF-8 bytes ({@code application/json}): the
     * module has no JSON library, so encode with yours, e.g. Jackson's
     * {@code mapper.writeValueAsBytes(value)}.
     */
    public static HttpResponse json(int status, byte[] utf8Json) {
        return of(status, "application/json", utf8Json);
    }

    /** {@code status} with neither header fields nor body. */
    public static HttpResponse empty(int status) {
        return new HttpResponse(status, HttpHeaders.empty(), NO_BODY);
    }

    public int status() {
        return status;
    }

    public String reason() {
        return reason;
    }

    public HttpVersion version() {
        return version;
    }

    /** The header fields, frozen: change them on a copy ({@link #withHeader}, {@link #withAddedHeader}). */
    public HttpHeaders headers() {
        return headers;
    }

    /** The first value of header field {@code name} (case-insensitive), or null. */
    public String header(String name) {
        return headers.get(name);
    }

    /** A copy with field {@code name} set to {@code value}, replacing every field of that name. */
    public HttpResponse withHeader(String name, String value) {
        return new HttpResponse(this, status, reason, headers.copy().set(name, value).freezeInPlace(), body);
    }

    /** A copy with one more field {@code name} (after any of the same name, as for {@code Set-Cookie}). */
    public HttpResponse withAddedHeader(String name, String value) {
        return new HttpResponse(this, status, reason, headers.copy().add(name, value).freezeInPlace(), body);
    }

    /** A copy without any field named {@code name}. */
    public HttpResponse withoutHeader(String name) {
        HttpHeaders copy = headers.copy();
        copy.remove(name);
        return new HttpResponse(this, status, reason, copy.freezeInPlace(), body);
    }

    /**
     * A copy with {@code status}, and that status's standard reason phrase if this one had its
     * own status's standard phrase (else this reason is kept).
     */
    public HttpResponse withStatus(int status) {
        if (status < 100 || status > 999) {
            throw new IllegalArgumentException("status must have three digits: " + status);
        }
        String newReason = reason.equals(HttpStatus.reasonPhrase(this.status)) ? HttpStatus.reasonPhrase(status) : reason;
        return new HttpResponse(this, status, newReason, headers, body);
    }

    /** A copy with {@code body} (its Content-Length follows; the Content-Type field is kept). */
    public HttpResponse withBody(byte[] body) {
        return new HttpResponse(this, status, reason, headers, body == null ? NO_BODY : body);
    }

    /** The body (empty when none). Not copied: do not change it. */
    public byte[] body() {
        return body;
    }

    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /**
     * The head as a server sends it, but for {@code Date}, {@code Connection} and the empty line
     * that ends it: {@code HTTP/1.1 status reason}, the header fields but any
     * {@code Content-Length} or {@code Transfer-Encoding} (the server frames the body), then
     * {@code Content-Length} of the body unless the status forbids one (RFC 9110 §8.6). Every
     * line ends in CRLF. Computed once; do not change the array.
     */
    public byte[] encodedHead() {
        byte[] head = encodedHead;
        if (head == null) {
            head = HttpHead.response(status, reason, headers, HttpStatus.forbidsBody(status) ? HttpHead.UNFRAMED : body.length);
            encodedHead = head;
        }
        return head;
    }

    @Override
    public String toString() {
        return version + " " + status + " " + reason + " " + headers + (body.length == 0 ? "" : " +" + body.length + " bytes");
    }
}
