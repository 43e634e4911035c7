package io.jasyncio.lab.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * Just enough HTTP/1.1 for the lab, straight on {@code addReader}/{@code addWriter}: GET
 * requests without bodies, keep-alive, one request at a time per connection. Each request goes
 * to a {@link Handler} on the loop thread, which answers with a future (typically a task, as a
 * coroutine-per-request framework does). Not a web server: bad input just closes the connection.
 */
public final class TinyHttpServer extends LoopServer<TinyHttpServer.Connection> {
    private static final int MAX_HEAD_BYTES = 8192;

    /** An answer: status code and a plain-text body. */
    public record Response(int status, String body) {
    }

    /** Called on the loop thread for each request. */
    @FunctionalInterface
    public interface Handler {
        Future<Response> handle(String method, String path);
    }

    private final Handler handler;

    private TinyHttpServer(EventLoop loop, Handler handler) throws IOException {
        super(loop, 512);
        this.handler = handler;
    }

    /** Listens on 127.0.0.1 (an ephemeral port); call on the loop thread, or before the loop runs. */
    public static TinyHttpServer start(EventLoop loop, Handler handler) throws IOException {
        return new TinyHttpServer(loop, handler);
    }

    @Override
    Connection connect(SocketChannel channel) {
        return new Connection(channel);
    }

    /** One client connection: reads a request head, answers it, then reads the next. */
    final class Connection implements ClientConnection {
        final SocketChannel channel;
        final ByteBuffer in = ByteBuffer.allocate(MAX_HEAD_BYTES);
        ByteBuffer out;
        boolean busy;
        boolean closed;

        Connection(SocketChannel channel) {
            this.channel = channel;
        }

        @Override
        public void onReadable() {
            try {
                int n = channel.read(in);
                if (n < 0) {
                    close();
                    return;
                }
            } catch (IOException e) {
                close();
                return;
            }
            nextRequest();
        }

        /** Starts the next buffered request, if a whole head is there and none is in progress. */
        void nextRequest() {
            if (busy || closed) {
                return;
            }
            int end = headEnd();
            if (end < 0) {
                if (!in.hasRemaining()) {
                    close(); // a head larger than we accept
                }
                return;
            }
            String head = new String(in.array(), 0, end, StandardCharsets.ISO_8859_1);
            in.flip().position(end + 4);
            in.compact();
            int eol = head.indexOf("\r\n");
            String[] requestLine = (eol < 0 ? head : head.substring(0, eol)).split(" ");
            if (requestLine.length != 3 || !requestLine[2].startsWith("HTTP/1.")) {
                close();
                return;
            }
            busy = true;
            loop.removeReader(channel); // one request at a time: read the next once this one is answered
            Future<Response> answer;
            try {
                answer = handler.handle(requestLine[0], requestLine[1]);
            } catch (RuntimeException e) {
                answer = loop.createFuture();
                answer.setException(e);
            }
            answer.addDoneCallback(f -> respond(f.isCancelled() || f.exception() != null
                    ? new Response(500, "internal error") : f.result()));
        }

        /** Index of the blank line ending the head in {@code in}, or -1. */
        int headEnd() {
            byte[] b = in.array();
            for (int i = 0; i + 3 < in.position(); i++) {
                if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
                    return i;
                }
            }
            return -1;
        }

        void respond(Response r) {
            if (closed) {
                return;
            }
            byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
            String head = "HTTP/1.1 " + r.status() + " " + (r.status() == 200 ? "OK" : "Error") + "\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n";
            byte[] h = head.getBytes(StandardCharsets.ISO_8859_1);
            out = ByteBuffer.allocate(h.length + body.length).put(h).put(body).flip();
            flush();
        }

        void flush() {
            try {
                channel.write(out);
            } catch (IOException e) {
                close();
                return;
            }
            if (out.hasRemaining()) {
                loop.addWriter(channel, this::flush);
                return;
            }
            loop.removeWriter(channel);
            out = null;
            busy = false;
            loop.addReader(channel, this::onReadable);
            nextRequest();
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            release(this, channel);
        }
    }
}
