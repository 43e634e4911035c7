package io.jasyncio.http.server;

import io.jasyncio.loop.Future;

/**
 * A protocol that a connection was handed to ({@link HttpExchange#takeOver}) and that ends it in
 * order when its server shuts down. {@link HttpServer#shutdown} calls
 * {@link #serverShuttingDown()} on the loop as it begins, waits within its grace period for the
 * future returned, and drops the connection at the deadline if it is still open. A WebSocket
 * ({@link io.jasyncio.http.websocket.WebSocketServer}) is one: it closes with 1001 (Going Away).
 * A taken-over connection whose protocol is not one (a CONNECT tunnel) is closed at the end of the
 * shutdown. (Go's {@code Server.RegisterOnShutdown} serves hijacked connections the same way.)
 */
public interface ShutdownAware {
    /** The server shuts down: begin closing the connection; the future is done once it is closed. */
    Future<Void> serverShuttingDown();
}
