package io.jasyncio.http.server;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.Network;
import io.jasyncio.net.Server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
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
     * seconds, then drops the connections left; connections taken over ({@link HttpExchange#takeOver})
     * are closed then.
     */
    public void shutdown(double gracePeriod) {
        server.close();
        connections.shutdown(gracePeriod);
        server.closeClients(); // connections taken over (WebSocket, tunnels) are left: waitClosed waits for them
        server.waitClosed();
    }

    /** Coroutine: stops at once: no more accepting, every connection dropped. */
    public void close() {
        shutdown(0);
    }

    /** Coroutine: serves until the task running it is cancelled. */
    public void serveForever() {
        server.serveForever();
    }
}
