package io.jasyncio.http.server;

import io.jasyncio.http.codec.RateFloor;
import io.jasyncio.http.codec.ServerTimeouts;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.TimerHandle;
import io.jasyncio.net.Transport;

import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.jasyncio.task.Tasks.await;

/**
 * One server's connections on one loop: the handler and options they share, the sweep that
 * enforces their timeouts (one timer for all, no timer per request), and graceful shutdown.
 * Used on its loop only.
 */
final class ServerConnections {
    private final EventLoop loop;
    private final HttpServerOptions options;
    private final HttpHandler wholeHandler;
    private final StreamingHandler streamingHandler;
    private final BodyBudget bodyBudget;
    private final double sweepInterval;
    private final ServerTimeouts timeouts;
    private final ArrayList<HttpConnection> connections = new ArrayList<>();
    /**
     * The handler tasks of connections taken over, until they end. The loop holds a task that
     * waits on a future only weakly (as asyncio's set of tasks), and a taken-over connection's
     * stream protocol holds its reader weakly (as asyncio's); a connection in {@link #connections}
     * holds its handler's task, but a taken-over one left that set. Without this, a tunnel's
     * handler waiting to read is garbage, and with it its StreamWriters, whose collection closes
     * their connections mid-transfer.
     */
    private final Set<Task<?>> takenOverHandlers = new HashSet<>();
    private final TakenOverConnections takenOver;
    private TimerHandle sweep;
    private boolean shuttingDown;
    private Future<Void> allClosed;

    ServerConnections(EventLoop loop, HttpServerOptions options, HttpHandler wholeHandler, StreamingHandler streamingHandler) {
        this(loop, options, wholeHandler, streamingHandler, new BodyBudget(options.bodyBufferBudget()));
    }

    /** One loop's share of a server whose loops hold request bodies against one {@code bodyBudget}. */
    ServerConnections(EventLoop loop, HttpServerOptions options, HttpHandler wholeHandler, StreamingHandler streamingHandler,
                      BodyBudget bodyBudget) {
        this.loop = loop;
        this.takenOver = new TakenOverConnections(loop);
        this.bodyBudget = bodyBudget;
        this.options = options;
        this.wholeHandler = wholeHandler;
        this.streamingHandler = streamingHandler;
        this.sweepInterval = Math.clamp(options.shortestTimeout() / 8, 0.005, 1.0);
        this.timeouts = new ServerTimeouts(options.idleTimeout(), options.headerTimeout(), options.bodyReadTimeout(),
                Timeouts.seconds(options.requestTimeout()), options.lingerTimeout(), options.sendTimeout(),
                floor(options.minRequestBodyRate()), floor(options.minResponseRate()));
    }

    private static RateFloor floor(MinDataRate rate) {
        return rate == null ? null : new RateFloor(rate.bytesPerSecond(), Timeouts.seconds(rate.gracePeriod()));
    }

    /** The options' deadlines and floors, as the codec applies them. */
    ServerTimeouts timeouts() {
        return timeouts;
    }

    EventLoop loop() {
        return loop;
    }

    HttpServerOptions options() {
        return options;
    }

    HttpHandler wholeHandler() {
        return wholeHandler;
    }

    StreamingHandler streamingHandler() {
        return streamingHandler;
    }

    BodyBudget bodyBudget() {
        return bodyBudget;
    }

    boolean isShuttingDown() {
        return shuttingDown;
    }

    HttpConnection newConnection() {
        return new HttpConnection(this);
    }

    /** Registers a new connection; false when shutting down (it must close). */
    boolean add(HttpConnection connection) {
        if (shuttingDown) {
            return false;
        }
        connection.slot = connections.size();
        connections.add(connection);
        if (sweep == null) {
            sweep = loop.callLater(sweepInterval, this::sweep);
        }
        return true;
    }

    /** {@code connection} was taken over ({@link HttpExchange#takeOver}): it is no longer the server's to serve or time. */
    void handedOver(HttpConnection connection, Transport transport) {
        takenOver.add(transport);
        remove(connection);
    }

    void remove(HttpConnection connection) {
        int slot = connection.slot;
        if (slot < 0) {
            return;
        }
        connection.slot = -1;
        HttpConnection last = connections.removeLast();
        if (last != connection) {
            connections.set(slot, last);
            last.slot = slot;
        }
        if (connections.isEmpty()) {
            if (sweep != null) {
                sweep.cancel();
                sweep = null;
            }
            if (allClosed != null && !allClosed.isDone()) {
                allClosed.setResult(null);
            }
        }
    }

    /** Holds {@code handler}, the task of an exchange that took its connection over, until it is done. */
    void holdUntilDone(Task<?> handler) {
        if (!handler.isDone() && takenOverHandlers.add(handler)) {
            handler.addDoneCallback(takenOverHandlers::remove);
        }
    }

    /** How many handler tasks of taken-over connections are held (see {@link #holdUntilDone}). */
    int takenOverHandlerCount() {
        return takenOverHandlers.size();
    }

    /** The connections open now (a copy). */
    List<HttpConnection> list() {
        return List.copyOf(connections);
    }

    int size() {
        return connections.size();
    }

    private void sweep() {
        double now = loop.time();
        // backwards: a connection that closes leaves its slot to the last one, already checked
        for (int i = connections.size() - 1; i >= 0; i--) {
            if (i < connections.size()) {
                connections.get(i).checkTimeout(now);
            }
        }
        sweep = connections.isEmpty() ? null : loop.callLater(sweepInterval, this::sweep);
    }

    /**
     * Coroutine: graceful shutdown once the listener is closed: idle connections close now, busy
     * ones after their response, taken-over ones that are {@link ShutdownAware} in their own way
     * (a WebSocket with 1001); those left after {@code gracePeriod} seconds are dropped.
     */
    void shutdown(double gracePeriod) {
        Future<Void> done = beginShutdown();
        takenOver.beginShutdown();
        TimerHandle deadline = loop.callLater(gracePeriod, this::abortAll);
        try {
            await(done);
            takenOver.awaitClosed();
        } finally {
            deadline.cancel();
        }
    }

    /**
     * Graceful shutdown, step one (the listener is closed already): idle connections close now,
     * busy ones after their response. Returns a future done once none is left.
     */
    private Future<Void> beginShutdown() {
        shuttingDown = true;
        if (allClosed == null) {
            allClosed = loop.createFuture();
        }
        for (HttpConnection c : List.copyOf(connections)) {
            c.shutdown();
        }
        if (connections.isEmpty() && !allClosed.isDone()) {
            allClosed.setResult(null);
        }
        return allClosed;
    }

    /** Graceful shutdown, past its deadline: drops the connections left. */
    private void abortAll() {
        for (HttpConnection c : List.copyOf(connections)) {
            c.abort();
        }
        takenOver.drop();
    }
}
