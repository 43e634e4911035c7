package io.jasyncio.http.client;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

import static io.jasyncio.Asyncio.await;

/**
 * A response body as it arrives, read on the loop. The connection reads ahead of the reader by
 * at most {@link HttpClientOptions#bodyBufferBytes()}: past that it stops reading the socket
 * until the reader catches up, so a reader that stops reading stops the server (TCP's window)
 * and nothing buffers without bound. Read it to the end (then its connection goes back to the
 * pool) or {@link #close()} it (which closes the connection when bytes are still to come).
 */
public final class ResponseBody implements AutoCloseable {
    /** What the body tells its connection: the reader fell behind, caught up, or gave up. */
    interface Source {
        void pauseReading();

        void resumeReading();

        /** The reader closed the body before its end: the connection cannot carry another response. */
        void abandon();

        /** Whether the socket is being read (false while paused for this body's reader). */
        boolean isReading();
    }

    private final EventLoop loop;
    private final Source source;
    private final int limit;
    private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();
    private long buffered;
    private boolean ended;
    private boolean closed;
    private boolean paused;
    private Throwable failure;
    private Future<Void> waiter;
    private HttpHeaders trailers = HttpHeaders.empty();

    ResponseBody(EventLoop loop, Source source, int limit) {
        this.loop = loop;
        this.source = source;
        this.limit = limit;
    }

    /** An already complete body (a HEAD response, a 204, a 304). */
    static ResponseBody empty(EventLoop loop) {
        ResponseBody body = new ResponseBody(loop, null, 1);
        body.ended = true;
        return body;
    }

    // ---- the connection's side ----------------------------------------------------------------

    /** Bytes of the body arrived: copied (the transport reuses its buffer), the reader woken. */
    void append(ByteBuffer data) {
        if (closed || !data.hasRemaining()) {
            data.position(data.limit());
            return;
        }
        byte[] copy = new byte[data.remaining()];
        data.get(copy);
        chunks.add(copy);
        buffered += copy.length;
        if (buffered >= limit && !paused) {
            paused = true;
            source.pauseReading();
        }
        wake();
    }

    /**
     * The body's last byte arrived. Its bytes are all here, so the connection's next bytes are
     * another response's: a socket paused for this body's reader is resumed at once.
     * {@code trailers}: the trailer fields of a chunked body (empty for none).
     */
    void end(HttpHeaders trailers) {
        this.trailers = trailers == null ? HttpHeaders.empty() : trailers;
        ended = true;
        if (paused) {
            paused = false;
            source.resumeReading();
        }
        wake();
    }

    /** The body cannot be completed: reads after the buffered bytes throw {@code error}. */
    void fail(Throwable error) {
        if (!ended && failure == null) {
            failure = error;
            wake();
        }
    }

    boolean isEnded() {
        return ended;
    }

    /**
     * The trailer fields that followed a chunked body (RFC 9112 §7.1.2), empty when it had none
     * or was not chunked. They come after the body's last byte: call this once {@link #read()}
     * returned null (or {@link #readAll()} returned).
     *
     * @throws IllegalStateException before the body's end arrived
     */
    public HttpHeaders trailers() {
        if (!ended) {
            throw new IllegalStateException("the trailers follow the body: read the body to its end first");
        }
        return trailers;
    }

    /** Bytes received and not yet read (for tests of the flow control). */
    long bufferedBytes() {
        return buffered;
    }

    /** Whether the connection is reading the socket (for tests of the flow control). */
    boolean sourceIsReading() {
        return source != null && source.isReading();
    }

    private void wake() {
        Future<Void> w = waiter;
        if (w != null) {
            waiter = null;
            if (!w.isDone()) {
                w.setResult(null);
            }
        }
    }

    // ---- the reader's side --------------------------------------------------------------------

    /**
     * Coroutine: the next bytes of the body, or null at its end. Throws the connection's error
     * (an {@link IOException}, an {@link HttpTimeoutException}) when the body cannot be completed.
     */
    public ByteBuffer read() throws IOException {
        while (chunks.isEmpty()) {
            if (closed) {
                throw new IOException("the response body was closed");
            }
            if (failure != null) {
                throw failure instanceof IOException io ? io : new IOException(failure.getMessage(), failure);
            }
            if (ended) {
                return null;
            }
            Future<Void> w = loop.createFuture();
            waiter = w;
            await(w);
        }
        byte[] next = chunks.poll();
        buffered -= next.length;
        if (paused && buffered < limit) {
            paused = false;
            source.resumeReading();
        }
        return ByteBuffer.wrap(next);
    }

    /** Coroutine: the rest of the body, read to its end. */
    public byte[] readAll() throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        ByteBuffer b;
        while ((b = read()) != null) {
            all.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
        }
        return all.toByteArray();
    }

    /** Coroutine: the rest of the body as UTF-8 text. */
    public String text() throws IOException {
        return new String(readAll(), StandardCharsets.UTF_8);
    }

    /**
     * Drops what is buffered. A body not yet at its end gives its connection up (it is closed,
     * never pooled). Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        chunks.clear();
        buffered = 0;
        if (!ended && failure == null && source != null) {
            source.abandon();
        }
        wake();
    }
}
