package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The protocol under a stream pair (asyncio's {@code StreamReaderProtocol} with its
 * {@code FlowControlMixin}): feeds what arrives into the {@link StreamReader}, and turns the
 * transport's pause/resume-writing into what {@link StreamWriter#drain()} waits on. For a server
 * it also starts the client-connected callback as a task per connection.
 */
public final class StreamReaderProtocol implements Protocol {
    private final EventLoop loop;
    private StreamReader reader;
    private final ClientConnectedCallback clientConnected;
    private final Future<Void> closed;
    private final ArrayDeque<Future<Void>> drainWaiters = new ArrayDeque<>();
    private Transport transport;
    private StreamWriter writer;
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
        this.reader = reader;
        this.clientConnected = clientConnected;
        this.closed = loop.createFuture();
    }

    boolean isServerSide() {
        return clientConnected != null;
    }

    @Override
    public void connectionMade(Transport transport) {
        this.transport = transport;
        reader.setTransport(transport);
        overSsl = transport.getExtraInfo("sslcontext") != null;
        if (clientConnected != null) {
            StreamWriter w = new StreamWriter(transport, this, reader, loop);
            this.writer = w;
            StreamReader r = reader;
            task = Tasks.create(loop, () -> {
                clientConnected.handle(r, w);
                return null;
            }, null, null);
            task.addDoneCallback(t -> clientTaskDone(t, transport));
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
        if (reader != null) {
            reader.feedData(data);
        }
    }

    /** The reader's room for the transport to read into directly, or null (see StreamReader). */
    ByteBuffer roomToReadInto() {
        return reader == null ? null : reader.roomToReadInto();
    }

    /** {@code n} bytes were read into {@link #roomToReadInto()}. */
    void receivedInPlace(int n) {
        reader.fedInPlace(n);
    }

    /** Whether the reader would lend room to a receive in flight (see StreamReader.lendRoom). */
    boolean canLendRoom() {
        return reader != null && reader.canLendRoom();
    }

    /** The reader's room for a receive that completes later, lent until it is filled or returned; or null. */
    ByteBuffer lendRoom() {
        return reader == null ? null : reader.lendRoom();
    }

    /** {@code n} bytes arrived in the lent {@code room}. */
    void receivedIntoLentRoom(ByteBuffer room, int n) {
        if (reader != null) {
            reader.lentRoomFilled(room, n);
        }
    }

    /** The receive {@code room} was lent to ended without bytes. */
    void lentRoomReturned(ByteBuffer room) {
        if (reader != null) {
            reader.lentRoomReturned(room);
        }
    }

    @Override
    public boolean eofReceived() {
        if (reader != null) {
            reader.feedEof();
        }
        // Keep the write side open (half-close), except over TLS, which cannot.
        return !overSsl;
    }

    @Override
    public void connectionLost(Throwable exc) {
        if (reader != null) {
            if (exc == null) {
                reader.feedEof();
            } else {
                reader.setException(exc);
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
            while ((w = drainWaiters.pollFirst()) != null) {
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
        writer = null;
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
        while ((w = drainWaiters.pollFirst()) != null) {
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
