package io.jasyncio.http.server;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpLimits;
import io.jasyncio.http.HttpMessageListener;
import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpParser;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.net.StreamConnection;
import io.jasyncio.net.Streams;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A raw HTTP/1.1 client for the tests, on the test's loop over a real socket: writes bytes as
 * given (so malformed requests go out as written) and reads responses back with the response parser.
 */
final class TestClient implements HttpMessageListener {
    /** A response as read: head, whole body, trailers. */
    record Received(HttpResponse head, byte[] body, HttpHeaders trailers) {
        int status() {
            return head.status();
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        String header(String name) {
            return head.header(name);
        }
    }

    final StreamConnection connection;
    private final HttpParser parser = HttpParser.forResponses(HttpLimits.defaults().withMaxBodySize(-1), this);
    private ByteBuffer unparsed = ByteBuffer.allocate(0);
    private HttpResponse head;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private Received done;

    private TestClient(StreamConnection connection) {
        this.connection = connection;
    }

    /** Coroutine: connects to 127.0.0.1:port; the reader holds at most {@code readLimit} bytes unread. */
    static TestClient connect(int port, int readLimit) throws IOException {
        return new TestClient(Streams.openConnection(EventLoops.getRunningLoop(), "127.0.0.1", port, null, readLimit));
    }

    static TestClient connect(int port) throws IOException {
        return connect(port, 64 * 1024);
    }

    /** The client's socket (to set its buffer sizes). */
    java.nio.channels.SocketChannel socket() {
        return (java.nio.channels.SocketChannel) connection.writer().getExtraInfo("socket");
    }

    void send(String raw) {
        connection.writer().write(raw.getBytes(StandardCharsets.ISO_8859_1));
    }

    void send(byte[] raw) {
        connection.writer().write(raw);
    }

    /** Coroutine: the next response, to a request that was not HEAD; fails at EOF before it. */
    Received response() throws IOException {
        return response("GET");
    }

    /** Coroutine: the next response, to a {@code method} request. */
    Received response(String method) throws IOException {
        parser.respondingTo(method);
        while (true) {
            if (unparsed.hasRemaining()) {
                parser.feed(unparsed);
                if (done != null) {
                    Received r = done;
                    done = null;
                    if (r.status() >= 200) {
                        return r;
                    }
                    continue; // a 1xx: the real response follows
                }
            }
            byte[] more = connection.reader().read(64 * 1024);
            if (more.length == 0) {
                parser.feedEof();
                if (done != null) {
                    Received r = done;
                    done = null;
                    return r;
                }
                throw new IOException("EOF before a response");
            }
            unparsed = ByteBuffer.wrap(more);
        }
    }

    /** Coroutine: reads until EOF; the bytes that came before it. */
    byte[] readUntilEof() throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.write(unparsed.array(), unparsed.position(), unparsed.remaining());
        unparsed = ByteBuffer.allocate(0);
        while (true) {
            byte[] more = connection.reader().read(64 * 1024);
            if (more.length == 0) {
                return all.toByteArray();
            }
            all.write(more);
        }
    }

    /** Coroutine: the raw bytes that arrive first (at least one), as text. */
    String readSome() throws IOException {
        return new String(connection.reader().read(64 * 1024), StandardCharsets.ISO_8859_1);
    }

    /** Coroutine: as {@link #readSome()}, failing by assertion if nothing arrives within {@code seconds}. */
    String readSomeWithin(double seconds) {
        io.jasyncio.task.Task<String> read = io.jasyncio.Asyncio.createTask(this::readSome);
        try {
            HttpTesting.within(seconds, read::isDone, () -> "nothing arrived");
        } finally {
            read.cancel();
        }
        return read.result();
    }

    void close() {
        connection.writer().close();
    }

    @Override
    public boolean onResponseHead(HttpResponse response) {
        head = response;
        body.reset();
        return true;
    }

    @Override
    public boolean onBody(ByteBuffer chunk) {
        byte[] bytes = new byte[chunk.remaining()];
        chunk.get(bytes);
        body.writeBytes(bytes);
        return true;
    }

    @Override
    public boolean onMessageComplete(HttpHeaders trailers) throws HttpParseException {
        done = new Received(head, body.toByteArray(), trailers);
        return false;
    }
}
