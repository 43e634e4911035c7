package io.jasyncio.http.websocket;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;

import static io.jasyncio.Asyncio.await;

/**
 * A WebSocket connection as coroutines use it (Python websockets' {@code ServerConnection} /
 * {@code ClientConnection}): {@link #receive()} waits for the next message, {@link #send} waits
 * while the peer is not reading, {@link #close} runs the closing handshake. Messages wait in a
 * queue of {@link WebSocketOptions#receiveQueue()}; while it is full the socket is not read, so a
 * slow receiver slows the peer down instead of filling memory. Use it from tasks on its loop.
 * <pre>{@code
 * for (WebSocketMessage m : ws.messages()) {   // ends when the peer closes normally
 *     ws.send(m);
 * }
 * }</pre>
 */
public final class WebSocket {
    private final Session session = new Session();
    private final WebSocketOptions options;
    private WebSocketProtocol connection;
    private final ArrayDeque<WebSocketMessage> queue = new ArrayDeque<>();
    private Future<Void> arrival;
    private Future<Void> closed;
    private final ArrayDeque<PendingPing> pings = new ArrayDeque<>();

    private record PendingPing(byte[] payload, Future<Double> pong, long sentAt) {
    }

    WebSocket(WebSocketOptions options) {
        this.options = options;
    }

    /** The listener that feeds this session; the connection is set when it opens. */
    WebSocketListener listener() {
        return session;
    }

    void attach(WebSocketProtocol protocol) {
        this.connection = protocol;
    }

    // ---- receiving -----------------------------------------------------------------------------

    /**
     * Coroutine: the next message. Throws {@link WebSocketClosedException} once the connection is
     * closed and every message received before its close was taken.
     */
    public WebSocketMessage receive() throws WebSocketClosedException {
        while (queue.isEmpty()) {
            if (connection.isClosed()) {
                throw closedException();
            }
            if (arrival == null || arrival.isDone()) {
                arrival = connection.loop().createFuture();
            }
            await(arrival);
        }
        WebSocketMessage m = queue.poll();
        if (queue.size() <= options.receiveQueue() / 4) {
            connection.setQueueFull(false);
        }
        return m;
    }

    /**
     * The messages as they come, for a for-each loop: {@code hasNext()} waits for the next one
     * (a coroutine), and is false once the connection closed normally (1000, 1001, no code);
     * otherwise it throws the {@link WebSocketClosedException}, unchecked in an
     * {@link java.io.UncheckedIOException}.
     */
    public Iterable<WebSocketMessage> messages() {
        return () -> new Iterator<>() {
            private WebSocketMessage next;
            private boolean ended;

            @Override
            public boolean hasNext() {
                if (next == null && !ended) {
                    try {
                        next = receive();
                    } catch (WebSocketClosedException e) {
                        ended = true;
                        if (!e.isNormal()) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }
                }
                return next != null;
            }

            @Override
            public WebSocketMessage next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                WebSocketMessage m = next;
                next = null;
                return m;
            }
        };
    }

    // ---- sending -------------------------------------------------------------------------------

    /** Coroutine: sends a text message, then waits while the write buffer is over its mark. */
    public void send(String text) throws WebSocketClosedException {
        checkSent(connection.sendText(text));
    }

    /** Coroutine: sends a binary message ({@code data} is not copied: leave it unchanged). */
    public void send(byte[] data) throws WebSocketClosedException {
        checkSent(connection.sendBinary(data));
    }

    /** Coroutine: sends {@code message} as it is, text or binary. */
    public void send(WebSocketMessage message) throws WebSocketClosedException {
        if (message.isText()) {
            send(message.text());
        } else {
            send(message.bytes());
        }
    }

    /** Coroutine: sends one message in fragments (see {@link WebSocketConnection#sendFragmented}). */
    public void sendFragmented(boolean text, byte[]... parts) throws WebSocketClosedException {
        checkSent(connection.sendFragmented(text, parts));
    }

    private void checkSent(boolean sent) throws WebSocketClosedException {
        if (!sent) {
            throw closedException();
        }
        Future<Void> room = connection.whenWritable();
        if (room != null) {
            await(room);
        }
    }

    /**
     * Sends a ping with {@code payload} (at most 125 bytes; each ping pending needs its own) and
     * returns a future of the round trip in seconds: done when its pong comes (a pong answers
     * the pings before it too), failed with {@link WebSocketClosedException} if the connection
     * closes first. Await it with a timeout.
     */
    public Future<Double> ping(byte[] payload) throws WebSocketClosedException {
        for (PendingPing p : pings) {
            if (java.util.Arrays.equals(p.payload, payload)) {
                throw new IllegalStateException("a ping with this payload is pending already");
            }
        }
        if (!connection.ping(payload)) {
            throw closedException();
        }
        Future<Double> pong = connection.loop().createFuture();
        pings.add(new PendingPing(payload.clone(), pong, System.nanoTime()));
        return pong;
    }

    /** As {@link #ping(byte[])} with 4 bytes of payload of its own. */
    public Future<Double> ping() throws WebSocketClosedException {
        byte[] payload;
        do {
            payload = Integer.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextInt()).getBytes(StandardCharsets.US_ASCII);
        } while (pendingPing(payload));
        return ping(payload);
    }

    private boolean pendingPing(byte[] payload) {
        return pings.stream().anyMatch(p -> java.util.Arrays.equals(p.payload, payload));
    }

    // ---- closing -------------------------------------------------------------------------------

    /**
     * Coroutine: the closing handshake with {@code code} and {@code reason}; returns once the
     * connection is closed (the peer answered, or the close timeout passed). Idempotent.
     */
    public void close(int code, String reason) {
        connection.close(code, reason);
        waitClosed();
    }

    /** Coroutine: {@link #close(int, String) close(1000, "")}. */
    public void close() {
        close(CloseCodes.NORMAL, "");
    }

    /** Coroutine: waits until the connection is closed. */
    public void waitClosed() {
        if (!connection.isClosed()) {
            if (closed == null) {
                closed = connection.loop().createFuture();
            }
            await(closed);
        }
    }

    /** Drops the connection at once. */
    public void abort() {
        connection.abort();
    }

    public boolean isOpen() {
        return connection.isOpen();
    }

    /** The close code once closed (see {@link WebSocketClosedException}); 1006 before. */
    public int closeCode() {
        return connection.closeCode();
    }

    public String closeReason() {
        return connection.closeReason();
    }

    public String subprotocol() {
        return connection.subprotocol();
    }

    /** The permessage-deflate agreed, or null. */
    public String extensions() {
        return connection.extensions();
    }

    public SocketAddress remoteAddress() {
        return connection.remoteAddress();
    }

    public EventLoop loop() {
        return connection.loop();
    }

    /** Messages received and not yet taken. */
    int queuedMessages() {
        return queue.size();
    }

    /** This session's connection, for the callback form's calls (pauseReading, bufferedAmount ...). */
    public WebSocketConnection connection() {
        return connection;
    }

    private WebSocketClosedException closedException() {
        return new WebSocketClosedException(connection.closeCode(), connection.closeReason());
    }

    /** The connection's events, into the queue. */
    private final class Session implements WebSocketListener {
        @Override
        public void onText(WebSocketConnection c, String text) {
            arrived(WebSocketMessage.text(text));
        }

        @Override
        public void onBinary(WebSocketConnection c, byte[] data) {
            arrived(WebSocketMessage.binary(data));
        }

        private void arrived(WebSocketMessage m) {
            queue.add(m);
            if (queue.size() >= options.receiveQueue()) {
                connection.setQueueFull(true);
            }
            wake();
        }

        @Override
        public void onPong(WebSocketConnection c, byte[] payload) {
            if (!pendingPing(payload)) {
                return; // unsolicited, or the keep-alive's
            }
            long now = System.nanoTime();
            while (!pings.isEmpty()) {
                PendingPing p = pings.poll();
                p.pong.setResult((now - p.sentAt) / 1e9);
                if (java.util.Arrays.equals(p.payload, payload)) {
                    break;
                }
            }
        }

        @Override
        public void onClose(WebSocketConnection c, int code, String reason) {
            wake();
            if (closed != null && !closed.isDone()) {
                closed.setResult(null);
            }
            for (PendingPing p : pings) {
                p.pong.setException(closedException());
                p.pong.exception(); // a ping no one awaits any more is no error to report
            }
            pings.clear();
        }

        private void wake() {
            if (arrival != null && !arrival.isDone()) {
                arrival.setResult(null);
            }
        }
    }
}
