package io.jasyncio.http;

import java.nio.charset.StandardCharsets;

/**
 * How a message head is written, by the client and the server alike: the start line, the field
 * lines but the framing ones ({@code Content-Length}, {@code Transfer-Encoding}: the sender
 * frames the body itself, so a field cannot contradict it), then the framing the sender chose.
 * Every line ends in CRLF; the empty line that ends the head is the sender's to add.
 */
public final class HttpHead {
    /** No framing field (a body framed otherwise, or none). */
    public static final long UNFRAMED = -1;
    /** {@code Transfer-Encoding: chunked}. */
    public static final long CHUNKED = -2;

    private HttpHead() {
    }

    /**
     * {@code method target HTTP/1.1}, {@code Host: hostIfMissing} first when that is not null,
     * the fields, then {@code framing}: a Content-Length, {@link #CHUNKED} or {@link #UNFRAMED}.
     */
    public static byte[] request(String method, String target, String hostIfMissing, HttpHeaders headers, long framing) {
        StringBuilder sb = new StringBuilder(64 + headers.size() * 32);
        sb.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        if (hostIfMissing != null) {
            sb.append("Host: ").append(hostIfMissing).append("\r\n");
        }
        return fieldsAndFraming(sb, headers, framing);
    }

    /** {@code HTTP/1.1 status reason}, the fields, then {@code framing} (as {@link #request}). */
    public static byte[] response(int status, String reason, HttpHeaders headers, long framing) {
        StringBuilder sb = new StringBuilder(64 + headers.size() * 32);
        sb.append("HTTP/1.1 ").append(status).append(' ').append(reason).append("\r\n");
        return fieldsAndFraming(sb, headers, framing);
    }

    /** Every field of {@code fields} as a line (trailer fields, after a chunked body's last chunk). */
    public static byte[] fieldLines(HttpHeaders fields) {
        StringBuilder sb = new StringBuilder(fields.size() * 32);
        for (int i = 0; i < fields.size(); i++) {
            sb.append(fields.name(i)).append(": ").append(fields.value(i)).append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] fieldsAndFraming(StringBuilder sb, HttpHeaders headers, long framing) {
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i);
            if (!name.equalsIgnoreCase("Content-Length") && !name.equalsIgnoreCase("Transfer-Encoding")) {
                sb.append(name).append(": ").append(headers.value(i)).append("\r\n");
            }
        }
        if (framing >= 0) {
            sb.append("Content-Length: ").append(framing).append("\r\n");
        } else if (framing == CHUNKED) {
            sb.append("Transfer-Encoding: chunked\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
