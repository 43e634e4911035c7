package io.jasyncio.http.server;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.net.Transport;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

import static io.jasyncio.task.Tasks.await;

/**
 * One server's connections taken over (Upgrade, CONNECT) on one loop, held weakly as the net
 * server holds its clients. On shutdown those whose protocol is {@link ShutdownAware} (a
 * WebSocket) are asked to close in order and waited for; at the grace deadline they are dropped.
 */
final class TakenOverConnections {
    private final EventLoop loop;
    private final Map<Transport, Boolean> transports = new WeakHashMap<>();
    /** The closings asked for and not yet awaited. */
    private final ArrayDeque<Future<Void>> closing = new ArrayDeque<>();
    private boolean shuttingDown;

    TakenOverConnections(EventLoop loop) {
        this.loop = loop;
    }

    /** A connection was handed over; its protocol becomes the transport's soon ({@link HandOver}), before {@code tell} runs. */
    void add(Transport transport) {
        transports.put(transport, Boolean.TRUE);
        if (shuttingDown) {
            loop.callSoon(() -> tell(transport)); // taken over while the server shuts down: it goes too
        }
    }

    /** Shutdown begins: every ShutdownAware connection is asked to close. */
    void beginShutdown() {
        shuttingDown = true;
        for (Transport t : List.copyOf(transports.keySet())) {
            tell(t);
        }
    }

    private void tell(Transport t) {
        if (!t.isClosing() && t.getProtocol() instanceof ShutdownAware aware) {
            closing.add(aware.serverShuttingDown());
        }
    }

    /** Coroutine: returns once every connection asked to close is closed (the deadline's {@link #drop} ends the wait). */
    void awaitClosed() {
        while (!closing.isEmpty()) {
            await(closing.poll());
        }
    }

    /** The grace period is over: the ShutdownAware connections still open are dropped. */
    void drop() {
        for (Transport t : List.copyOf(transports.keySet())) {
            if (t.getProtocol() instanceof ShutdownAware) {
                t.abort();
            }
        }
    }
}
