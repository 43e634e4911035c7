package io.jasyncio.http.server;

import io.jasyncio.Asyncio;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.Signal;
import io.jasyncio.net.Network;
import io.jasyncio.net.Server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * An HTTP/1.1 server on one loop. Start it from a task on that loop:
 * <pre>{@code
 * HttpServer server = HttpServer.start(loop, request -> HttpResponse.text(200, "hello"),
 *         "127.0.0.1", 8080, HttpServerOptions.defaults());
 * }</pre>
 * Each connection is a protocol on the loop's transport (no streams); each request runs its
 * handler as a task. For many loops, {@link HttpGroupServer}.
 */
public final class HttpServer {
    private final Server server;
    private final ServerConnections connections;

    private HttpServer(Server server, ServerConnections connections) {
        this.server = server;
        this.connections = connections;
    }

    /** Coroutine: serves {@code host:port} (port 0: one the system picks) with a whole-request handler. */
    public static HttpServer start(EventLoop loop, HttpHandler handler, String host, int port,
                                   HttpServerOptions options) throws IOException {
        return listen(new ServerConnections(loop, options, handler, null), host, port);
    }

    /** Coroutine: serves {@code host:port} with a streaming handler. */
    public static HttpServer startStreaming(EventLoop loop, StreamingHandler handler, String host, int port,
                                            HttpServerOptions options) throws IOException {
        return listen(new ServerConnections(loop, options, null, handler), host, port);
    }

    private static HttpServer listen(ServerConnections connections, String host, int port) throws IOException {
        Server server = Network.createServer(connections.loop(), connections::newConnection,
                host == null ? null : List.of(host), port, connections.options().serverOptions());
        return new HttpServer(server, connections);
    }

    /** The port listened on (the first socket's). */
    public int port() {
        return ((InetSocketAddress) server.addresses().getFirst()).getPort();
    }

    public List<SocketAddress> addresses() {
        return server.addresses();
    }

    public EventLoop getLoop() {
        return connections.loop();
    }

    /** This server's connections (for the tests). */
    ServerConnections connections() {
        return connections;
    }

    /** Connections open now. */
    public int connectionCount() {
        return connections.size();
    }

    /**
     * Coroutine: graceful shutdown. Stops accepting, closes idle connections, lets requests in
     * flight finish (their responses say {@code Connection: close}) for up to {@code gracePeriod}
     * seconds, then drops the connections left. Of the connections taken over
     * ({@link HttpExchange#takeOver}), a WebSocket begins its closing handshake with 1001 (Going
     * Away) at once and is waited for within the grace period (any {@link ShutdownAware} protocol
     * is asked so); the others (a CONNECT tunnel) are closed at the end.
     */
    public void shutdown(double gracePeriod) {
        server.close();
        connections.shutdown(gracePeriod);
        server.closeClients(); // taken-over connections left (tunnels, WebSockets past the grace): waitClosed waits for them
        server.waitClosed();
    }

    /** Coroutine: stops at once: no more accepting, every connection dropped. */
    public void close() {
        shutdown(0);
    }

    /**
     * Coroutine: serves until the task running it is cancelled (then the server closes and is
     * waited for), or until the process is asked to stop, as uvicorn and aiohttp's {@code run_app}
     * do: the first SIGINT (Ctrl-C) or SIGTERM shuts the server down gracefully
     * ({@link #shutdown} with {@value #STOP_GRACE_SECONDS} s: requests in flight get their
     * responses) and serveForever returns; a SIGINT during that drain drops the connections left at
     * once. Where this loop cannot take the signals (another loop has them, or the JVM gives none),
     * it serves until cancelled only.
     */
    public void serveForever() {
        EventLoop loop = getLoop();
        Future<Void> stopAsked = loop.createFuture();
        Runnable onTerm = () -> {
            if (!stopAsked.isDone()) {
                stopAsked.setResult(null);
            }
        };
        Runnable onInt = () -> {
            if (!stopAsked.isDone()) {
                stopAsked.setResult(null);
            } else {
                Asyncio.createTask(loop, this::close); // the second Ctrl-C: no more waiting
            }
        };
        List<Signal> taken = new ArrayList<>();
        take(loop, Signal.SIGINT, onInt, taken);
        take(loop, Signal.SIGTERM, onTerm, taken);
        try {
            try {
                Asyncio.await(stopAsked);
            } catch (CancelledError cancelled) {
                server.close();
                server.waitClosed();
                throw cancelled;
            }
            shutdown(STOP_GRACE_SECONDS);
        } finally {
            for (Signal signal : taken) {
                loop.removeSignalHandler(signal);
            }
        }
    }

    /** How long the graceful stop of {@link #serveForever} lets requests in flight finish, in seconds. */
    public static final double STOP_GRACE_SECONDS = 30;

    private static void take(EventLoop loop, Signal signal, Runnable handler, List<Signal> taken) {
        try {
            loop.addSignalHandler(signal, handler);
            taken.add(signal);
        } catch (UnsupportedOperationException | IllegalStateException notHere) {
            // another loop has it, or this JVM gives no signals: cancellation still stops the server
        }
    }
}
