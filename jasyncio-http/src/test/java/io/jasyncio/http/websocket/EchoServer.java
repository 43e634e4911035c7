package io.jasyncio.http.websocket;

import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;

import java.io.IOException;

import static io.jasyncio.Asyncio.getRunningLoop;

/**
 * The tests' WebSocket server on the running loop: {@code /echo} sends every message back as it
 * came (the coroutine form), {@code /close/CODE} closes at once with CODE, {@code /fail} throws
 * in its session, other paths answer 404 over plain HTTP.
 */
final class EchoServer {
    private EchoServer() {
    }

    static HttpServer start(WebSocketOptions options) throws IOException {
        return start(options, HttpServerOptions.defaults());
    }

    static HttpServer start(WebSocketOptions options, HttpServerOptions http) throws IOException {
        return HttpServer.startStreaming(getRunningLoop(), exchange -> {
            String path = exchange.request().path();
            if (!WebSocketServer.isUpgrade(exchange.request())) {
                exchange.respond(HttpResponse.text(404, "not here"));
            } else if (path.startsWith("/close/")) {
                WebSocket ws = WebSocketServer.accept(exchange, options);
                ws.close(Integer.parseInt(path.substring(7)), "closing " + path.substring(7));
            } else if (path.equals("/fail")) {
                WebSocketServer.run(WebSocketServer.accept(exchange, options), ws -> {
                    throw new IllegalStateException("the session failed on purpose");
                });
            } else {
                WebSocketServer.handler(options, ws -> {
                    for (WebSocketMessage m : ws.messages()) {
                        ws.send(m);
                    }
                }).handle(exchange);
            }
        }, "127.0.0.1", 0, http);
    }

    static String url(HttpServer server, String path) {
        return "ws://127.0.0.1:" + server.port() + path;
    }
}
