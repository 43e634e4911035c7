package io.jasyncio.http.server;

import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpParser;
import io.jasyncio.http.codec.PipelinedInput;
import io.jasyncio.http.codec.ReceiveDeadlines;
import io.jasyncio.http.codec.ServerConnectionState;
import io.jasyncio.loop.EventLoop;

import java.nio.ByteBuffer;

/**
 * A connection's parser, fed in order: a read is parsed at once when nothing waits before it,
 * else held in the {@link PipelinedInput}; held bytes are parsed again once the request before
 * them is answered ({@link #resumeSoon}). The parser stops at the end of each request until it is
 * answered, so requests surface one at a time. While it parses, the responses written go out in
 * one write ({@link ResponseWriter#cork}).
 */
final class RequestParsing {
    private final HttpConnection connection;
    private final RequestCycle requests;
    private final HttpParser parser;
    private final ServerConnectionState state;
    private final PipelinedInput input;
    private final ReceiveDeadlines deadlines;
    private final ResponseWriter writer;
    private final ReadFlow flow;
    private final ConnectionEnd end;
    private final EventLoop loop;
    private final Runnable resume = this::resume;
    private boolean inFeed;
    /** The bytes being parsed, while they are (past its position: what the client sent after the current message). */
    private ByteBuffer feeding;

    RequestParsing(HttpConnection connection, RequestCycle requests, ServerConnections server, ServerConnectionState state,
                   PipelinedInput input, ReceiveDeadlines deadlines, ResponseWriter writer, ReadFlow flow,
                   ConnectionEnd end) {
        this.connection = connection;
        this.requests = requests;
        this.parser = HttpParser.forRequests(server.options().limits(), requests);
        this.state = state;
        this.input = input;
        this.deadlines = deadlines;
        this.writer = writer;
        this.flow = flow;
        this.end = end;
        this.loop = server.loop();
    }

    HttpParser parser() {
        return parser;
    }

    /** Whether a response written now is written while a read is parsed (it goes out when the parsing ends). */
    boolean inFeed() {
        return inFeed;
    }

    /** Whether the read being parsed has bytes after the current message. */
    boolean unparsedInRead() {
        return feeding != null && feeding.hasRemaining();
    }

    /** A read: parsed now if nothing waits before it, else held after what waits. */
    void parseRead(ByteBuffer data) {
        if (state.awaitingResponse() || !input.isEmpty()) {
            input.hold(data);
            return;
        }
        writer.cork();
        try {
            feed(data);
            if (data.hasRemaining()) {
                input.hold(data);
            }
        } finally {
            writer.uncork();
        }
    }

    /** Parses the held bytes soon (on the loop, not from inside a handler's task). */
    void resumeSoon() {
        loop.callSoon(resume);
    }

    private void feed(ByteBuffer data) {
        inFeed = true;
        feeding = data;
        try {
            parser.feed(data);
        } catch (HttpParseException e) {
            data.position(data.limit());
            requests.refuse(e);
        } finally {
            inFeed = false;
            feeding = null;
        }
        if (!requests.inRequest() && parser.inMessage()) {
            deadlines.requestBegan(loop.time()); // a request began: its head has a deadline
        }
    }

    /** Parses the held bytes again once the request before them is answered. */
    private void resume() {
        if (end.isClosing() || end.isClosed() || end.isHandedOver()) {
            return;
        }
        writer.cork();
        try {
            while (!state.awaitingResponse() && !requests.inRequest() && !end.isClosing() && !flow.isWritePaused()
                    && !input.isEmpty()) {
                ByteBuffer view = input.parseView();
                feed(view);
                input.consumed(view);
            }
        } finally {
            writer.uncork();
        }
        if (input.isEmpty() && end.peerClosed() && !state.awaitingResponse() && !end.isClosing()) {
            requests.endOfRequests();
            return;
        }
        connection.updateReading();
    }
}
