package io.jasyncio.http.client;

import io.jasyncio.http.HttpHead;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.codec.ClientConnectionState;
import io.jasyncio.http.codec.OutgoingBody;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.TimerHandle;
import io.jasyncio.net.Transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

import static io.jasyncio.Asyncio.await;

/**
 * The write side of a {@link ClientConnection}: sends a request's head and body, framed by the
 * connection's state machine ({@link OutgoingBody}), under the transport's write flow control
 * (each write waits while the write buffer is above its high-water mark). With
 * {@code Expect: 100-continue} the body waits for the 100, a final response (then it is not
 * sent) or the timeout (RFC 9110 §10.1.1); a final response that comes while the body is sent
 * stops the sending (RFC 9112 §9.5).
 */
final class RequestSender {
    /** A body up to this size is written with its head, in one write. */
    private static final int COALESCE_BODY_BYTES = 16 * 1024;
    private static final byte[] NOTHING = new byte[0];

    private final EventLoop loop;
    private final Origin origin;
    private final HttpClientOptions options;
    private final ClientConnectionState state;
    private final TransportSink sink = new TransportSink();
    private Transport transport;
    private boolean lost;
    private boolean writingPaused;
    private Future<Void> drained;

    RequestSender(EventLoop loop, Origin origin, HttpClientOptions options, ClientConnectionState state) {
        this.loop = loop;
        this.origin = origin;
        this.options = options;
        this.state = state;
    }

    /**
     * Coroutine: writes {@code request}, begun in the state machine with the head's
     * {@code framing}: the head, then the body (coalesced with the head when small and known).
     * Returns once the request is written and the write buffer drained, or once a final response
     * ended the sending: then a failure to write the rest (the server stopped taking it, or
     * closed) is not the exchange's, whose answer stands.
     */
    void send(ClientExchange ex, HttpClientRequest request, long framing) throws IOException {
        try {
            sendHeadAndBody(ex, request, framing);
        } catch (IOException | RuntimeException e) {
            if (!state.answeredEarly()) {
                throw e;
            }
        }
    }

    private void sendHeadAndBody(ClientExchange ex, HttpClientRequest request, long framing) throws IOException {
        RequestBody body = request.body();
        HttpHeaders headers = request.headers();
        byte[] head = HttpHead.request(request.method(), request.target(), headers.contains("Host") ? null : origin.hostHeader(),
                headers, framing);
        byte[] headBytes = Arrays.copyOf(head, head.length + 2);
        headBytes[head.length] = '\r';
        headBytes[head.length + 1] = '\n';
        if (state.awaitingContinue()) {
            transport.write(headBytes);
            awaitContinue(ex);
            if (state.answeredEarly()) {
                return; // a final response instead of the 100: the body is not sent
            }
            headBytes = NOTHING;
        }
        OutgoingBody framed = state.requestBody();
        if (body instanceof RequestBody.Bytes small && small.length() <= COALESCE_BODY_BYTES) {
            sink.headFirst(headBytes);
            framed.write(small.bytes(), sink);
            sink.flushHead(); // an empty body: the head alone
            framed.end(HttpHeaders.empty(), sink);
            awaitDrained();
            return;
        }
        if (headBytes.length > 0) {
            transport.write(headBytes);
        }
        if (body instanceof RequestBody.Empty) {
            return;
        }
        try {
            body.writeTo(new ClientConnection.RequestBodyWriter(this, framed));
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("the request body failed: " + e, e);
        }
        if (state.answeredEarly()) {
            return;
        }
        if (framed.end(HttpHeaders.empty(), sink) == OutgoingBody.Ending.SHORT) {
            throw new IOException("the request body wrote " + framed.written() + " of its declared " + body.length() + " bytes");
        }
        awaitDrained();
    }

    /** Coroutine: waits for the 100 (Continue), a final response (then no body is sent) or the timeout. */
    private void awaitContinue(ClientExchange ex) throws IOException {
        awaitDrained();
        if (!state.awaitingContinue()) {
            return; // the 100 or a final response came meanwhile, or the exchange failed
        }
        Future<Void> waiter = loop.createFuture();
        ex.continueWaiter = waiter;
        TimerHandle timeout = loop.callLater(options.expectContinueTimeout(), ex::wakeContinueWaiter);
        try {
            await(waiter);
        } finally {
            timeout.cancel();
            ex.continueWaiter = null;
        }
        if (lost) {
            throw new IOException("the connection to " + origin + " closed while waiting for 100 (Continue)");
        }
    }

    /** Coroutine: one piece of a streaming body, framed by {@code framed}, then the wait for the drain. */
    void writePiece(OutgoingBody framed, ByteBuffer data) throws IOException {
        if (state.answeredEarly()) {
            data.position(data.limit());
            throw new IOException("the server answered before the request body was sent: the rest is not sent");
        }
        if (lost || transport.isClosing()) {
            throw new IOException("the connection to " + origin + " closed while the request body was written");
        }
        boolean sent;
        try {
            sent = framed.write(data, sink);
        } catch (IllegalStateException refused) {
            throw new IOException(framed.ended() ? "the request body was written after its end"
                    : "the request body is longer than its declared " + (framed.written() + framed.remaining()) + " bytes",
                    refused);
        }
        if (sent) {
            awaitDrained();
        }
    }

    /** Coroutine: returns once the write buffer is at or below its low-water mark (at once if it never rose). */
    private void awaitDrained() throws IOException {
        while (writingPaused && !lost && !state.answeredEarly()) {
            Future<Void> d = loop.createFuture();
            drained = d;
            await(d);
        }
        if (lost) {
            throw new IOException("the connection to " + origin + " closed while the request was written");
        }
    }

    /** Bytes written and not yet handed to the socket. */
    long unsentBytes() {
        return transport.getWriteBufferSize();
    }

    /** Whether the transport asked to pause writing (its buffer is above the high-water mark). */
    boolean writingPaused() {
        return writingPaused;
    }

    // ---- the transport's events, as the connection passes them on ------------------------------

    void connectionMade(Transport transport) {
        this.transport = transport;
    }

    void pauseWriting() {
        writingPaused = true;
    }

    void resumeWriting() {
        writingPaused = false;
        wakeWriter();
    }

    void connectionLost() {
        lost = true;
        wakeWriter();
    }

    /** Wakes a write waiting for the drain: the buffer drained, the connection is gone, or the sending ends. */
    void wakeWriter() {
        Future<Void> d = drained;
        if (d != null) {
            drained = null;
            if (!d.isDone()) {
                d.setResult(null);
            }
        }
    }

    /** The transport as a sink for framed bytes; a head put first goes out with the first bytes after it. */
    private final class TransportSink implements OutgoingBody.Sink {
        private byte[] pendingHead;

        void headFirst(byte[] head) {
            pendingHead = head;
        }

        void flushHead() {
            byte[] head = pendingHead;
            pendingHead = null;
            if (head != null && head.length > 0) {
                transport.write(head);
            }
        }

        @Override
        public void put(byte[] bytes) {
            byte[] head = pendingHead;
            pendingHead = null;
            if (head == null || head.length == 0) {
                transport.write(bytes);
                return;
            }
            byte[] both = Arrays.copyOf(head, head.length + bytes.length);
            System.arraycopy(bytes, 0, both, head.length, bytes.length);
            transport.write(both);
        }

        @Override
        public void put(ByteBuffer bytes) {
            flushHead();
            transport.write(bytes);
        }
    }
}
