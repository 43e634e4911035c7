package io.jasyncio.http.client;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpLimits;
import io.jasyncio.http.HttpMessageListener;
import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpParser;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.codec.ClientConnectionState;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.Transport;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The read side of a {@link ClientConnection}: parses the bytes of responses as they arrive, asks
 * the connection's state machine what each head means (1xx ones are skipped; a final one that
 * comes while the request is sent stops the sending), gives the exchange its response and body,
 * and pauses the socket while the body's reader is behind ({@link ResponseBody.Source}).
 */
final class ResponseReceiver implements HttpMessageListener, ResponseBody.Source {
    /** What the receiver needs of its connection. */
    interface Owner {
        /** The exchange in flight, or null. */
        ClientExchange current();

        /** The final response of {@code ex} ended. */
        void responseEnded(ClientExchange ex);

        /** Ends {@code ex} with {@code error} and aborts the connection. */
        void fail(ClientExchange ex, Throwable error);
    }

    private final EventLoop loop;
    private final Origin origin;
    private final HttpClientOptions options;
    private final ClientConnectionState state;
    private final RequestSender sender;
    private final Owner owner;
    private final HttpParser parser;
    private Transport transport;
    private boolean lost;
    /** The socket is paused because the body's reader is behind: silence is not the server's. */
    private boolean pausedForReader;
    /** A byte of the last exchange's response arrived. */
    private boolean heardBack;

    ResponseReceiver(EventLoop loop, Origin origin, HttpClientOptions options, ClientConnectionState state,
                     RequestSender sender, Owner owner) {
        this.loop = loop;
        this.origin = origin;
        this.options = options;
        this.state = state;
        this.sender = sender;
        this.owner = owner;
        this.parser = HttpParser.forResponses(HttpLimits.defaults().withMaxHeaderBytes(options.maxResponseHeadBytes())
                .withMaxHeaderCount(options.maxResponseHeaderFields()).withMaxBodySize(-1), this);
    }

    void connectionMade(Transport transport) {
        this.transport = transport;
    }

    void connectionLost() {
        lost = true;
    }

    /** A request of {@code method} is about to go out: its response is the next one. */
    void expectResponseTo(String method) {
        heardBack = false;
        parser.respondingTo(method);
    }

    /** Whether any byte of a response to the last exchange arrived (even if that exchange failed since). */
    boolean heardBack() {
        return heardBack;
    }

    /** Whether the socket is paused for the body's reader (then the read-idle time is the reader's). */
    boolean pausedForReader() {
        return pausedForReader;
    }

    /** Bytes of {@code ex}'s response. */
    void received(ClientExchange ex, ByteBuffer data) {
        heardBack = true;
        if (!Double.isNaN(ex.heardAt)) {
            ex.heardAt = loop.time();
        }
        try {
            parser.feed(data);
        } catch (HttpParseException e) {
            owner.fail(ex, badResponse(e));
        }
    }

    /** The server closed its side during {@code ex}. */
    void eofReceived(ClientExchange ex) {
        try {
            parser.feedEof(); // ends a body read until close; anything else ends in connectionLost
        } catch (HttpParseException e) {
            owner.fail(ex, badResponse(e));
        }
    }

    /** The parser refused the response; a limit's refusal (431) names the client's limits and their options. */
    private IOException badResponse(HttpParseException e) {
        String limits = e.status() == 431 ? " (this client's limits: maxResponseHeadBytes " + options.maxResponseHeadBytes()
                + " bytes, maxResponseHeaderFields " + options.maxResponseHeaderFields() + " fields; raise them in "
                + "HttpClientOptions)" : "";
        return new IOException("bad response from " + origin + ": " + e.getMessage() + limits, e);
    }

    // ---- the parser's events ------------------------------------------------------------------

    @Override
    public boolean onResponseHead(HttpResponse head) throws HttpParseException {
        ClientExchange ex = owner.current();
        if (ex == null) {
            throw new HttpParseException(400, "a response without a request");
        }
        switch (state.responseHead(head, parser.readsUntilClose())) {
            case SWITCHED -> throw new HttpParseException(400, head.status() == 101
                    ? "101 Switching Protocols: this client does not upgrade"
                    : head.status() + " to CONNECT: this client opens no tunnels");
            case CONTINUE -> ex.wakeContinueWaiter();
            case INTERIM -> {
                // 103 Early Hints and the like: the real response follows
            }
            case FINAL -> {
                if (state.answeredEarly()) {
                    ex.wakeContinueWaiter(); // RFC 9112 §9.5: stop sending; the connection is not reused
                    sender.wakeWriter();
                }
                ex.headDeadline = Double.NaN;
                ex.body = new ResponseBody(loop, this, options.bodyBufferBytes());
                ex.head.setResult(new HttpClientResponse(head, ex.body));
            }
        }
        return true;
    }

    @Override
    public boolean onBody(ByteBuffer chunk) {
        ClientExchange ex = owner.current();
        if (ex != null && ex.body != null) {
            ex.body.append(chunk);
        } else {
            chunk.position(chunk.limit());
        }
        return true;
    }

    @Override
    public boolean onMessageComplete(HttpHeaders trailers) {
        ClientExchange ex = owner.current();
        if (ex == null || !state.responseEnded()) {
            return true; // an interim response ended: the real one follows
        }
        ex.heardAt = Double.NaN; // the response is all here: nothing more to wait for from the server
        ex.body.end(trailers);
        owner.responseEnded(ex);
        return true;
    }

    // ---- the body's flow control --------------------------------------------------------------

    @Override
    public void pauseReading() {
        if (!lost && !transport.isClosing()) {
            pausedForReader = true;
            transport.pauseReading();
        }
    }

    @Override
    public void resumeReading() {
        if (!lost && !transport.isClosing()) {
            pausedForReader = false;
            ClientExchange ex = owner.current();
            if (ex != null && !Double.isNaN(ex.heardAt)) {
                ex.heardAt = loop.time(); // the server's silence counts from here
            }
            transport.resumeReading();
        }
    }

    @Override
    public boolean isReading() {
        return !lost && transport.isReading();
    }

    @Override
    public void abandon() {
        ClientExchange ex = owner.current();
        if (ex != null) {
            owner.fail(ex, new IOException("the response body was closed before its end"));
        }
    }
}
