/**
 * HTTP/1.1 on jasyncio's loop: the parser and the shared message types in {@code io.jasyncio.http},
 * the server in {@code io.jasyncio.http.server}, the client in {@code io.jasyncio.http.client},
 * WebSocket (server and client) in {@code io.jasyncio.http.websocket} over its I/O-free codec
 * ({@code io.jasyncio.http.websocket.codec}, not exported).
 * Depends on jasyncio-core and the JDK alone; runs on every loop.
 */
module io.jasyncio.http {
    requires transitive io.jasyncio.core;
    // the client's HttpTimeoutException extends the JDK's, so a catch of either name fires
    requires transitive java.net.http;

    exports io.jasyncio.http;
    exports io.jasyncio.http.client;
    exports io.jasyncio.http.server;
    exports io.jasyncio.http.server.routing;
    exports io.jasyncio.http.websocket;
}
