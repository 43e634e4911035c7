package io.jasyncio.http.server;

import io.jasyncio.http.HttpHead;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpStatus;
import io.jasyncio.http.codec.OutgoingBody;
import io.jasyncio.http.codec.Refusal;
import io.jasyncio.http.codec.ResponseFraming;
import io.jasyncio.net.Transport;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What one server connection sends, in order (response heads and bodies, 100 Continue, refusals),
 * staged in the loop's {@link Outbound} buffer. While the connection parses a read it is corked:
 * the responses to the requests of that read go to the transport in one write when it is done.
 * It counts the bytes it sends, for the response rate floor, and is the sink a streamed
 * response's {@link OutgoingBody} frames its pieces into.
 */
final class ResponseWriter implements OutgoingBody.Sink {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONNECTION_CLOSE = "Connection: close\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONNECTION_KEEP_ALIVE = "Connection: keep-alive\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONNECTION_UPGRADE = "Connection: Upgrade\r\n".getBytes(StandardCharsets.US_ASCII);

    private Transport transport;
    private Outbound outbound;
    private boolean corked;
    /** Bytes handed to the outbound buffer or the transport. */
    private long bytesSent;

    void attach(Transport transport, Outbound outbound) {
        this.transport = transport;
        this.outbound = outbound;
    }

    @Override
    public void put(byte[] bytes) {
        bytesSent += bytes.length;
        outbound.put(transport, bytes);
    }

    @Override
    public void put(ByteBuffer bytes) {
        bytesSent += bytes.remaining();
        outbound.put(transport, bytes);
    }

    long bytesSent() {
        return bytesSent;
    }

    /** From now on, writes gather until {@link #uncork}. */
    void cork() {
        corked = true;
    }

    void uncork() {
        corked = false;
        flush();
    }

    void flush() {
        outbound.flush(transport);
    }

    void flushUnlessCorked() {
        if (!corked) {
            flush();
        }
    }

    void continueResponse() {
        put(CONTINUE);
        flushUnlessCorked();
    }

    /** The lines that end a response head the handler's fields began: Date, the server's Connection field, the empty line. */
    void endHead(ResponseFraming framing) {
        put(DateHeader.line());
        switch (framing.connectionField()) {
            case CLOSE -> put(CONNECTION_CLOSE);
            case KEEP_ALIVE -> put(CONNECTION_KEEP_ALIVE);
            case NONE -> {
            }
        }
        put(CRLF);
    }

    /** The head of a response that begins a stream of {@code framing}'s kind. */
    void streamHead(int status, HttpHeaders headers, ResponseFraming framing) {
        put(HttpHead.response(status, HttpStatus.reasonPhrase(status), headers, framing.headFraming()));
        endHead(framing);
    }

    /** The head that hands the connection over: 101 (adding {@code Connection: Upgrade}), or a tunnel's 2xx. */
    void handOverHead(int status, HttpHeaders headers, boolean tunnel) {
        put(HttpHead.response(status, HttpStatus.reasonPhrase(status), headers, HttpHead.UNFRAMED));
        put(DateHeader.line());
        if (!tunnel && headers.get("Connection") == null) {
            put(CONNECTION_UPGRADE);
        }
        put(CRLF);
    }

    /** The response that refuses a request (the connection closes after it). */
    void refusal(HttpParseException refused) {
        put(Refusal.encode(refused, DateHeader.line()));
    }
}
