package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The protocol under a stream pair (asyncio's {@code StreamReaderProtocol} with its
 * {@code FlowControlMixin}): feeds what arrives into the {@link StreamReader}, and turns the
 * transport's pause/resume-writing into what {@link StreamWriter#drain()} waits on. For a server
 * it also starts the client-connected callback as a task per connection.
 *
 * <p>As asyncio (3.11.7 and later), it holds the reader weakly and the writer not at all: the
 * loop reaches the protocol through the transport it still watches, and must not keep alive a
 * connection its owner dropped. A server's reader is held strongly only until the connection is
 * made and the callback has it. The dropped writer's collection closes the transport
 * (see {@link StreamWriter}).
 *
 * <p>It lends the transport its reader's free room ({@code LendingProtocol}: the library's own
 * plumbing, not for applications), so bulk data is read straight into the reader's buffer.
 */
public final class StreamReaderProtocol implements LendingProtocol {
    private final EventLoop loop;
    private WeakReference<StreamReader> reader;
    /** A server's reader until connectionMade hands it to the callback (asyncio's _strong_reader). */
    private StreamReader strongReader;
    private final ClientConnectedCallback clientConnected;
    private final Future<Void> closed;
    /** The drain() calls waiting for resumeWriting; made at the first one (an idle connection holds none). */
    private ArrayDeque<Future<Void>> drainWaiters;
    private Transport transport;
    private Task<Void> task;
    private boolean paused;
    private boolean connectionLost;
    private boolean overSsl;

    /**
     * The protocol feeding {@code reader}; with {@code clientConnected} (a server's), each connection
     * runs it as a task.
     */
    public StreamReaderProtocol(EventLoop loop, StreamReader reader, ClientConnectedCallback clientConnected) {
        this.loop = loop;
        this.reader = reader == null ? null : new WeakReference<>(reader);
        this.strongReader = clientConnected == null ? null : reader;
        this.clientConnected = clientConnected;
        this.closed = loop.createFuture();
    }

    /** The reader, or null once it was collected or the connection lost. */
    private StreamReader reader() {
        return reader == null ? null : reader.get();
    }

    EventLoop loop() {
        return loop;
    }

    /** The transport while connected (null before connectionMade and after connectionLost). */
    Transport transport() {
        return transport;
    }

    boolean isServerSide() {
        return clientConnected != null;
    }

    @Override
    public void connectionMade(Transport transport) {
        this.transport = transport;
        StreamReader r = reader();
        if (r != null) {
            r.setTransport(transport);
        }
        overSsl = transport.getExtraInfo("sslcontext") != null;
        if (clientConnected != null) {
            StreamWriter w = new StreamWriter(transport, this, r, loop);
            task = Tasks.create(loop, () -> {
                clientConnected.handle(r, w);
                return null;
            }, null, null);
            task.addDoneCallback(t -> clientTaskDone(t, transport));
            strongReader = null;
        }
    }

    /**
     * A failed handler is reported and its connection closed, as asyncio does, with the transport
     * it was given ({@code made}) when the connection is already lost: a handler often fails
     * because it was, and connectionLost has let go of the transport by then.
     */
    private void clientTaskDone(Future<Void> t, Transport made) {
        Transport tr = transport != null ? transport : made;
        if (t.isCancelled()) {
            if (tr != null) {
                tr.close();
            }
            return;
        }
        Throwable exc = t.exception();
        if (exc != null) {
            Map<String, Object> context = new LinkedHashMap<>();
            context.put("message", "Unhandled exception in client_connected_cb");
            context.put("exception", exc);
            context.put("transport", tr);
            loop.callExceptionHandler(context);
            if (tr != null) {
                tr.close();
            }
        }
        task = null;
    }

    void replaceTransport(Transport transport) {
        this.transport = transport;
        this.overSsl = transport.getExtraInfo("sslcontext") != null;
    }

    @Override
    public void dataReceived(ByteBuffer data) {
        StreamReader r = reader();
        if (r != null) {
            r.feedData(data);
        }
    }

    @Override
    public boolean canLendRoom() {
        StreamReader r = reader();
        return r != null && r.canLendRoom();
    }

    @Override
    public ByteBuffer lendRoom() {
        StreamReader r = reader();
        return r == null ? null : r.lendRoom();
    }

    @Override
    public void lentRoomFilled(ByteBuffer room, int n) {
        StreamReader r = reader();
        if (r != null) {
            r.lentRoomFilled(room, n);
        }
    }

    @Override
    public void lentRoomReturned(ByteBuffer room) {
        StreamReader r = reader();
        if (r != null) {
            r.lentRoomReturned(room);
        }
    }

    @Override
    public boolean eofReceived() {
        StreamReader r = reader();
        if (r != null) {
            r.feedEof();
        }
        // Keep the write side open (half-close), except over TLS, which cannot.
        return !overSsl;
    }

    @Override
    public void connectionLost(Throwable exc) {
        StreamReader r = reader();
        if (r != null) {
            if (exc == null) {
                r.feedEof();
            } else {
                r.setException(exc);
            }
        }
        if (!closed.isDone()) {
            if (exc == null) {
                closed.setResult(null);
            } else {
                closed.setException(exc);
                closed.exception(); // waitClosed rethrows it; nobody has to, so it is not "never retrieved"
            }
        }
        connectionLost = true;
        if (paused) {
            Future<Void> w;
            while (drainWaiters != null && (w = drainWaiters.pollFirst()) != null) {
                if (!w.isDone()) {
                    if (exc == null) {
                        w.setResult(null);
                    } else {
                        w.setException(exc);
                    }
                }
            }
        }
        reader = null;
        strongReader = null;
        transport = null;
    }

    @Override
    public void pauseWriting() {
        paused = true;
    }

    @Override
    public void resumeWriting() {
        paused = false;
        Future<Void> w;
        while (drainWaiters != null && (w = drainWaiters.pollFirst()) != null) {
            if (!w.isDone()) {
                w.setResult(null);
            }
        }
    }

    /** Coroutine: returns when writing may go on; throws if the connection is gone. */
    void drainHelper() throws ConnectionResetException {
        if (connectionLost) {
            throw new ConnectionResetException("Connection lost");
        }
        if (!paused) {
            return;
        }
        Future<Void> waiter = loop.createFuture();
        if (drainWaiters == null) {
            drainWaiters = new ArrayDeque<>(2);
        }
        drainWaiters.addLast(waiter);
        try {
            Tasks.await(waiter);
        } finally {
            drainWaiters.remove(waiter);
        }
    }

    Future<Void> closedFuture() {
        return closed;
    }
}
