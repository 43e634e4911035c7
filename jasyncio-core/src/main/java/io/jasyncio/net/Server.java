package io.jasyncio.net;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.util.CreationStack;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.util.ResourceWarnings;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

import static io.jasyncio.task.Tasks.await;

/**
 * A listening server (asyncio's {@code Server}): accepts connections on its sockets through the
 * loop's reader callbacks and gives each a transport and a new protocol. {@link #close()} stops
 * listening; {@link #waitClosed()} also waits for the connections it made to end.
 *
 * <p>As asyncio, the server holds its connections weakly (a {@link WeakHashMap} for
 * {@link #closeClients()}, plus a count for {@link #waitClosed()}): one that nobody references
 * any more, not even the loop, is collected, its channel closed, and it stops counting. A
 * server collected unclosed has its listening sockets closed likewise.
 */
public final class Server implements AutoCloseable {
    /** asyncio's pause before accepting again after running out of file descriptors. */
    static final double ACCEPT_RETRY_DELAY = 1.0;

    private final EventLoop loop;
    private List<ServerSocketChannel> sockets;
    private final List<ServerSocketChannel> allSockets;
    /** Where allSockets were bound when the server was made (port 0 resolved): kept after close. */
    private final List<SocketAddress> boundAddresses;
    private final Supplier<? extends BaseProtocol> protocolFactory;
    private final int backlog;
    private final TlsOptions tls;
    private final Path unixPath;
    private final Map<Transport, Boolean> clients = new WeakHashMap<>();
    private WeakReference<Server> weakSelf; // see weakly()
    /** Connections made and not yet ended (closed, or collected unclosed). */
    private int activeCount;
    private final ResourceWarnings.Tracker unclosed;
    private List<Future<Void>> waiters = new ArrayList<>();
    private boolean serving;
    private Future<Void> serveForeverFuture;
    /** Where accepted channels go instead of a transport here ({@link GroupServer}'s acceptor); null: here. */
    private Consumer<SocketChannel> handOff;

    Server(EventLoop loop, List<ServerSocketChannel> sockets, Supplier<? extends BaseProtocol> protocolFactory,
           int backlog, TlsOptions tls, Path unixPath) {
        this.loop = loop;
        this.sockets = new ArrayList<>(sockets);
        this.allSockets = List.copyOf(sockets);
        this.boundAddresses = addresses();
        this.protocolFactory = protocolFactory;
        this.backlog = backlog;
        this.tls = tls;
        this.unixPath = unixPath;
        boolean debug = loop.getDebug();
        this.unclosed = ResourceWarnings.track(this, debug ? "server <Server sockets=" + addresses() + ">" : null,
                debug ? CreationStack.captureOutsideLibrary() : null, new ClosesChannels(allSockets));
    }

    /** The release action of a server collected unclosed: it must not hold the server. */
    private record ClosesChannels(List<ServerSocketChannel> channels) implements Runnable {
        @Override
        public void run() {
            channels.forEach(Server::closeQuietly);
        }
    }

    /** The loop the server accepts on. */
    public EventLoop getLoop() {
        return loop;
    }

    /** The listening sockets (empty once closed). */
    public List<ServerSocketChannel> sockets() {
        return sockets == null ? List.of() : List.copyOf(sockets);
    }

    /** The addresses the sockets listen on (port 0 resolved to the one picked). */
    public List<SocketAddress> addresses() {
        List<SocketAddress> out = new ArrayList<>();
        for (ServerSocketChannel s : allSockets) {
            try {
                out.add(s.getLocalAddress());
            } catch (IOException e) {
                // closed: no address
            }
        }
        return out;
    }

    /**
     * The address the first listening socket is bound to, port 0 resolved to the one the system
     * picked: {@code server.localAddress().getPort()} is the port to connect to (still known
     * after {@link #close()}). A server on a Unix socket has none ({@link IllegalStateException}).
     */
    public InetSocketAddress localAddress() {
        for (SocketAddress a : boundAddresses) {
            if (a instanceof InetSocketAddress inet) {
                return inet;
            }
        }
        throw new IllegalStateException("the server listens on no IP address: " + boundAddresses);
    }

    /** The port of {@link #localAddress()}: the one to connect to, when the server was started on port 0. */
    public int port() {
        return localAddress().getPort();
    }

    /** Whether the server accepts connections (after {@link #startServing()}, until {@link #close()}). */
    public boolean isServing() {
        return serving;
    }

    /**
     * Gives every channel this server accepts, non-blocking, to {@code handOff} instead of making
     * its transport here; set before {@link #startServing()}. Accepting, its batches and its
     * pause when out of descriptors stay this server's.
     */
    void handAcceptedTo(Consumer<SocketChannel> handOff) {
        this.handOff = handOff;
    }

    /** Starts accepting (a no-op when already serving). */
    public void startServing() {
        if (serving || sockets == null) {
            return;
        }
        serving = true;
        for (ServerSocketChannel s : sockets) {
            listen(s);
        }
    }

    private void listen(ServerSocketChannel socket) {
        loop.addReader(socket, () -> acceptReady(socket));
    }

    /** Accepts up to {@code backlog} waiting connections in one go, as asyncio. */
    private void acceptReady(ServerSocketChannel socket) {
        for (int i = 0; i < backlog; i++) {
            SocketChannel accepted;
            try {
                accepted = socket.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                acceptFailed(socket, e);
                return;
            }
            if (accepted == null) {
                return;
            }
            try {
                accepted.configureBlocking(false);
                if (handOff != null) {
                    handOff.accept(accepted);
                    continue;
                }
                Network.startTransport(loop, accepted, protocolFactory.get(), tls, true, null, this, null);
            } catch (Throwable t) {
                closeQuietly(accepted);
                report("Error on transport creation for incoming connection", t, socket);
            }
        }
    }

    /**
     * An accept failed. Out of file descriptors (or buffers): report it, stop accepting on this
     * socket for a second, then try again, as asyncio: neither spin on a socket that stays
     * readable nor give up serving. Anything else is reported and accepting goes on.
     */
    void acceptFailed(ServerSocketChannel socket, IOException e) {
        if (isOutOfResources(e)) {
            report("socket.accept() out of system resource", e, socket);
            loop.removeReader(socket);
            loop.callLater(ACCEPT_RETRY_DELAY, () -> {
                if (serving && sockets != null && sockets.contains(socket)) {
                    listen(socket);
                }
            });
        } else if (!isAborted(e)) {
            report("Error on accepting a connection", e, socket);
        }
    }

    /** EMFILE, ENFILE, ENOBUFS, ENOMEM: the JDK keeps only the message. */
    static boolean isOutOfResources(IOException e) {
        String m = String.valueOf(e.getMessage());
        return m.contains("Too many open files") || m.contains("No buffer space available")
                || m.contains("Cannot allocate memory");
    }

    private static boolean isAborted(IOException e) {
        return String.valueOf(e.getMessage()).contains("aborted");
    }

    private void report(String message, Throwable exc, ServerSocketChannel socket) {
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("message", message);
        context.put("exception", exc);
        context.put("socket", socket);
        loop.callExceptionHandler(context);
    }

    void attach(Transport transport) {
        clients.put(transport, Boolean.TRUE);
        activeCount++;
    }

    void detach(BaseTransport transport) {
        if (clients.remove(transport) != null) {
            connectionEnded();
        }
    }

    /** This server, weakly: one reference that every connection's {@link CollectedTransport} shares. */
    WeakReference<Server> weakly() {
        WeakReference<Server> w = weakSelf;
        if (w == null) {
            w = weakSelf = new WeakReference<>(this);
        }
        return w;
    }

    /** A connection was collected without being closed (see {@link CollectedTransport}). */
    void detachCollected() {
        connectionEnded();
    }

    private void connectionEnded() {
        activeCount--;
        if (activeCount == 0 && sockets == null) {
            wakeup();
        }
    }

    /** Closes every connection this server made (asyncio 3.13's close_clients). */
    public void closeClients() {
        for (Transport t : List.copyOf(clients.keySet())) {
            t.close();
        }
    }

    /** Aborts every connection this server made, dropping buffered data (abort_clients). */
    public void abortClients() {
        for (Transport t : List.copyOf(clients.keySet())) {
            t.abort();
        }
    }

    private void wakeup() {
        List<Future<Void>> w = waiters;
        waiters = null;
        if (w != null) {
            for (Future<Void> f : w) {
                if (!f.isDone()) {
                    f.setResult(null);
                }
            }
        }
    }

    /**
     * Stops listening and closes the listening sockets; connections already made go on. (A
     * channel the poller watched is released by the poller's next turn: NIO defers it.) Returns
     * at once, without waiting: what try-with-resources calls; call on the loop's thread. To wait
     * for the connections to end as well, {@link #closeClients()} and then {@link #waitClosed()}.
     */
    @Override
    public void close() {
        List<ServerSocketChannel> s = sockets;
        if (s == null) {
            return;
        }
        sockets = null;
        unclosed.closed();
        for (ServerSocketChannel socket : s) {
            loop.removeReader(socket);
            closeQuietly(socket);
        }
        if (unixPath != null) {
            try {
                Files.deleteIfExists(unixPath);
            } catch (IOException ignored) {
                // someone else's now
            }
        }
        serving = false;
        if (serveForeverFuture != null && !serveForeverFuture.isDone()) {
            serveForeverFuture.cancel();
            serveForeverFuture = null;
        }
        if (activeCount == 0) {
            wakeup();
        }
    }

    /** Coroutine: returns once the server is closed and every connection it made has ended. */
    public void waitClosed() {
        if (waiters == null) {
            return;
        }
        Future<Void> waiter = loop.createFuture();
        waiters.add(waiter);
        await(waiter);
    }

    /** Coroutine: serves until cancelled; then closes the server and waits for it. */
    public void serveForever() {
        if (serveForeverFuture != null) {
            throw new IllegalStateException("server " + this + " is already being awaited on serve_forever()");
        }
        if (sockets == null) {
            throw new IllegalStateException("server " + this + " is closed");
        }
        startServing();
        serveForeverFuture = loop.createFuture();
        try {
            await(serveForeverFuture);
        } catch (CancelledError e) {
            try {
                close();
                waitClosed();
            } finally {
                serveForeverFuture = null;
            }
            throw e;
        }
    }

    private static void closeQuietly(java.nio.channels.Channel c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // already broken
        }
    }

    @Override
    public String toString() {
        return "<Server sockets=" + addresses() + ">";
    }
}
