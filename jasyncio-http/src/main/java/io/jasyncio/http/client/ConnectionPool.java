package io.jasyncio.http.client;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.TimerHandle;
import io.jasyncio.net.ConnectOptions;
import io.jasyncio.net.Connection;
import io.jasyncio.net.Network;
import io.jasyncio.net.TlsOptions;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.jasyncio.Asyncio.await;

/**
 * The client's connections, one pool per origin, on the loop thread. An origin has at most
 * {@code maxConnectionsPerOrigin} connections open (idle, busy or still connecting); a request
 * beyond them waits, first come first served, for one to be released or closed. A released
 * connection goes to the first waiter, else to the idle stack (most recently used first, so the
 * others expire), unless the stack is full or the connection cannot carry another exchange: then
 * it is closed. An idle connection is closed after {@code idleTimeout}, and leaves the pool at once
 * when the server closes it.
 *
 * <p>Time is kept by one timer, the sweep, as Netty's and the JDK client's pools do, not by a
 * timer per request or per idle period (which a busy client would schedule and cancel once per
 * request, leaving the loop's heap full of cancelled timers). The sweep is armed for the earliest
 * deadline it was told of ({@link #watch}), no sooner than a tick after the last sweep (1/16 of
 * the shortest timeout, between 1 ms and 1 s); when it fires it closes the expired idle
 * connections, lets each busy one fail its expired exchange ({@link ClientConnection#checkDeadlines}),
 * and re-arms for the next deadline, if any. Under steady load it fires about once a tick and is
 * never cancelled; with nothing to watch, no timer is left.
 */
final class ConnectionPool {
    private final EventLoop loop;
    private final HttpClientOptions options;
    private final Map<Origin, PerOrigin> origins = new HashMap<>();
    /** Every attached connection whose transport is not gone yet (busy ones have deadlines to check). */
    private final Set<ClientConnection> attached = new LinkedHashSet<>();
    private boolean closed;

    private static final double MIN_TICK = 0.001;
    private static final double MAX_TICK = 1.0;
    /** The sweep's granularity: how much later than its time a deadline may fire. */
    private double tick;
    private TimerHandle sweep;
    /** The loop time the sweep is armed for (meaningful while {@code sweep} is not null). */
    private double sweepAt;
    private double lastSweep = Double.NEGATIVE_INFINITY;

    /** One origin's connections: how many are open, the idle ones and the requests waiting. */
    private static final class PerOrigin {
        final Origin origin;
        int open;
        final ArrayDeque<ClientConnection> idle = new ArrayDeque<>();
        /** A waiter gets a connection, or null: a free slot it may connect with itself. */
        final ArrayDeque<Future<ClientConnection>> waiters = new ArrayDeque<>();

        PerOrigin(Origin origin) {
            this.origin = origin;
        }
    }

    ConnectionPool(EventLoop loop, HttpClientOptions options) {
        this.loop = loop;
        this.options = options;
        this.tick = tickFor(options.shortestSweptTimeout());
    }

    private static double tickFor(double timeout) {
        return Double.isNaN(timeout) ? MAX_TICK : Math.max(MIN_TICK, Math.min(MAX_TICK, timeout / 16));
    }

    // ---- the sweep ----------------------------------------------------------------------------

    /**
     * A deadline at loop time {@code due} now exists (an exchange's or an idle connection's):
     * the sweep fires by then (or a tick after the last sweep, whichever is later). Nothing is
     * scheduled when the sweep is already armed for that time or earlier, which under steady load
     * is always: deadlines only grow.
     */
    void watch(double due) {
        if (Double.isNaN(due)) {
            return;
        }
        double at = Math.max(due, lastSweep + tick);
        if (sweep != null) {
            if (sweepAt <= at) {
                return;
            }
            sweep.cancel(); // a shorter deadline than any before (a per-request timeout): rare
        }
        sweepAt = at;
        sweep = loop.callAt(at, this::sweep);
    }

    /** A per-request timeout shorter than the options': the sweep's ticks follow it. */
    void watchTimeout(double timeout) {
        tick = Math.min(tick, tickFor(timeout));
    }

    private void sweep() {
        sweep = null;
        double now = loop.time();
        lastSweep = now;
        double next = Double.POSITIVE_INFINITY;
        for (ClientConnection c : new ArrayList<>(attached)) { // a failed exchange leaves the set as it closes
            next = Math.min(next, c.checkDeadlines(now));
        }
        if (!Double.isNaN(options.idleTimeout())) {
            for (PerOrigin p : new ArrayList<>(origins.values())) {
                ClientConnection oldest;
                while ((oldest = p.idle.peekLast()) != null) { // most recently used first: the oldest are last
                    double expires = oldest.idleSince() + options.idleTimeout();
                    if (expires > now) {
                        next = Math.min(next, expires);
                        break;
                    }
                    p.idle.pollLast();
                    oldest.leaveIdle();
                    oldest.close(); // gone() frees the slot
                }
            }
        }
        if (next != Double.POSITIVE_INFINITY) {
            watch(next);
        }
    }


    /** Coroutine: a connection to {@code origin} for one exchange: an idle one, a new one, or the next released. */
    ClientConnection acquire(Origin origin) throws IOException {
        if (closed) {
            throw new IOException("the HTTP client is closed");
        }
        PerOrigin p = origins.computeIfAbsent(origin, PerOrigin::new);
        ClientConnection idle = takeIdle(p);
        if (idle != null) {
            return idle;
        }
        if (p.open < options.maxConnectionsPerOrigin()) {
            p.open++;
            return connect(p);
        }
        Future<ClientConnection> turn = loop.createFuture();
        p.waiters.add(turn);
        ClientConnection handed;
        try {
            handed = await(turn);
        } catch (CancelledError e) {
            p.waiters.remove(turn);
            if (turn.isDone() && !turn.isCancelled()) { // handed over just before the cancel landed: pass it on
                ClientConnection unused = turn.result();
                if (unused != null) {
                    release(unused, true);
                } else {
                    slotFreed(p);
                }
            }
            throw e;
        }
        return handed != null ? handed : connect(p);
    }

    /**
     * An idle connection to {@code origin} that can carry an exchange now, or null (none, or the
     * pool is closed): the common case, taken without a wait and so without a timer.
     */
    ClientConnection takeIdle(Origin origin) {
        PerOrigin p = closed ? null : origins.get(origin);
        return p == null ? null : takeIdle(p);
    }

    private static ClientConnection takeIdle(PerOrigin p) {
        ClientConnection idle;
        while ((idle = p.idle.pollFirst()) != null) {
            idle.leaveIdle();
            if (idle.canCarryExchange()) {
                return idle;
            }
            idle.close(); // its end is on the way: gone() frees the slot
        }
        return null;
    }

    /** Coroutine: opens a connection in a slot already counted in {@code p.open}; the slot is freed if it fails. */
    private ClientConnection connect(PerOrigin p) throws IOException {
        Origin origin = p.origin;
        ConnectOptions connect = ConnectOptions.defaults();
        if (!Double.isNaN(options.connectTimeout())) {
            connect = connect.withTimeout(options.connectTimeout());
        }
        if (origin.secure()) {
            connect = connect.withTls(options.tls() != null ? options.tls() : TlsOptions.systemDefault());
        }
        ClientConnection connection;
        try {
            Connection<ClientConnection> c = Network.createConnection(loop,
                    () -> new ClientConnection(loop, origin, options), origin.host(), origin.port(), connect);
            connection = c.protocol();
        } catch (io.jasyncio.task.TimeoutException e) {
            slotFreed(p);
            throw new HttpTimeoutException(HttpTimeoutException.Phase.CONNECT,
                    "connecting to " + origin + " took longer than " + options.connectTimeout() + " s");
        } catch (Throwable t) {
            slotFreed(p);
            throw t;
        }
        if (!connection.attach(this)) { // closed during the handshake: it never counted
            slotFreed(p);
            throw new IOException("the connection to " + origin + " closed as it was made");
        }
        attached.add(connection);
        return connection;
    }

    /**
     * The exchange on {@code connection} ended: it is handed on or kept idle when {@code reusable},
     * otherwise closed (its slot is freed when its transport is gone).
     */
    void release(ClientConnection connection, boolean reusable) {
        PerOrigin p = origins.get(connection.origin());
        if (!reusable || closed || p == null || !connection.canCarryExchange()) {
            connection.close();
            return;
        }
        Future<ClientConnection> waiter;
        while ((waiter = p.waiters.poll()) != null) {
            if (!waiter.isDone()) {
                waiter.setResult(connection);
                return;
            }
        }
        if (p.idle.size() >= options.maxIdlePerOrigin()) {
            connection.close();
            return;
        }
        p.idle.addFirst(connection);
        double now = loop.time();
        connection.enterIdle(now);
        if (!Double.isNaN(options.idleTimeout())) {
            watch(now + options.idleTimeout());
        }
    }

    /** {@code connection}'s transport is gone (called once, for a connection that {@link ClientConnection#attach attached}). */
    void gone(ClientConnection connection) {
        attached.remove(connection);
        PerOrigin p = origins.get(connection.origin());
        if (p == null) {
            return;
        }
        if (p.idle.remove(connection)) {
            connection.leaveIdle();
        }
        slotFreed(p);
    }

    /** A slot of {@code p} is free: the first live waiter takes it (to connect itself), else it is given back. */
    private void slotFreed(PerOrigin p) {
        p.open--;
        Future<ClientConnection> waiter;
        while ((waiter = p.waiters.poll()) != null) {
            if (!waiter.isDone()) {
                p.open++;
                waiter.setResult(null);
                return;
            }
        }
        if (p.open == 0 && p.idle.isEmpty()) {
            origins.remove(p.origin);
        }
    }

    /** Connections open to {@code origin} (idle, busy or connecting). */
    int openConnections(Origin origin) {
        PerOrigin p = origins.get(origin);
        return p == null ? 0 : p.open;
    }

    int idleConnections(Origin origin) {
        PerOrigin p = origins.get(origin);
        return p == null ? 0 : p.idle.size();
    }

    /** Refuses new requests and closes the idle connections; busy ones close when their exchange ends. */
    void close() {
        closed = true; // the sweep goes on for the busy connections' deadlines, then stops
        List<ClientConnection> idle = new ArrayList<>();
        for (PerOrigin p : origins.values()) {
            idle.addAll(p.idle);
            p.idle.clear();
            Future<ClientConnection> waiter;
            while ((waiter = p.waiters.poll()) != null) {
                if (!waiter.isDone()) {
                    waiter.setException(new IOException("the HTTP client is closed"));
                }
            }
        }
        for (ClientConnection c : idle) {
            c.leaveIdle();
            c.close();
        }
    }
}
