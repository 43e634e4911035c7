package io.jasyncio.http.websocket;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.HttpVersion;
import io.jasyncio.http.server.HttpExchange;
import io.jasyncio.http.server.StreamingHandler;
import io.jasyncio.http.websocket.codec.DeflateAgreement;
import io.jasyncio.http.websocket.codec.ExtensionOffer;
import io.jasyncio.http.websocket.codec.HandshakeKeys;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;

/**
 * The server's side of the opening handshake (RFC 6455 §4.2), from any streaming handler: it
 * checks the request, picks a subprotocol and permessage-deflate, answers 101 through
 * {@link HttpExchange#takeOver} and returns the connection. A request that is no valid upgrade is
 * answered 400 (426 with {@code Sec-WebSocket-Version: 13} for another version) and
 * {@link WebSocketHandshakeException} is thrown.
 * <pre>{@code
 * HttpServer.startStreaming(loop, WebSocketServer.handler(WebSocketOptions.defaults(), ws -> {
 *     for (WebSocketMessage m : ws.messages()) {
 *         ws.send(m);
 *     }
 * }), "127.0.0.1", 8080, HttpServerOptions.defaults());
 * }</pre>
 */
public final class WebSocketServer {
    /** A coroutine that runs one WebSocket session. */
    @FunctionalInterface
    public interface SessionHandler {
        void handle(WebSocket ws) throws Exception;
    }

    private WebSocketServer() {
    }

    /** Whether {@code request} asks for a WebSocket ({@code Upgrade: websocket}). */
    public static boolean isUpgrade(HttpRequest request) {
        return request.headers().containsToken("Upgrade", "websocket");
    }

    /** Coroutine: accepts the WebSocket {@code exchange} asks for, as a coroutine session. */
    public static WebSocket accept(HttpExchange exchange, WebSocketOptions options) throws WebSocketHandshakeException {
        WebSocket ws = new WebSocket(options);
        WebSocketProtocol protocol = open(exchange, options, ws.listener());
        ws.attach(protocol);
        await(protocol.opened()); // the server hands the connection over soon, outside the handler's step
        return ws;
    }

    /**
     * Accepts the WebSocket {@code exchange} asks for, its events to {@code listener} (the callback
     * form). The connection is handed over soon after: send from {@link WebSocketListener#onOpen} on.
     */
    public static WebSocketConnection accept(HttpExchange exchange, WebSocketOptions options, WebSocketListener listener)
            throws WebSocketHandshakeException {
        return open(exchange, options, listener);
    }

    /**
     * A streaming handler that accepts every request as a WebSocket and runs {@code session} on
     * it (a request that is no valid upgrade is answered 400 or 426, and that is all). When the session returns, the connection is closed with 1000; if it throws, with 1011
     * (and the exception goes to the loop's handler, as a handler's does), unless it is the
     * connection's own {@link WebSocketClosedException}.
     */
    public static StreamingHandler handler(WebSocketOptions options, SessionHandler session) {
        return exchange -> {
            WebSocket ws;
            try {
                ws = accept(exchange, options);
            } catch (WebSocketHandshakeException refused) {
                return; // answered 400 or 426: the client's mistake, no error of the server's
            }
            run(ws, session);
        };
    }

    /** Coroutine: runs {@code session} on {@code ws} and closes it as {@link #handler} says. */
    public static void run(WebSocket ws, SessionHandler session) throws Exception {
        try {
            session.handle(ws);
            ws.close(CloseCodes.NORMAL, "");
        } catch (WebSocketClosedException closed) {
            ws.waitClosed(); // the peer closed or went away: no fault of the session's
        } catch (java.io.UncheckedIOException e) {
            if (!(e.getCause() instanceof WebSocketClosedException)) { // messages() throws it so
                ws.close(CloseCodes.INTERNAL_ERROR, "");
                throw e;
            }
            ws.waitClosed();
        } catch (Exception | Error e) {
            ws.close(CloseCodes.INTERNAL_ERROR, "");
            throw e;
        }
    }

    private static WebSocketProtocol open(HttpExchange exchange, WebSocketOptions options, WebSocketListener listener)
            throws WebSocketHandshakeException {
        HttpRequest request = exchange.request();
        HttpHeaders fields = request.headers();
        String key = fields.get("Sec-WebSocket-Key");
        String problem = !request.method().equals("GET") ? "a WebSocket opens with GET"
                : request.version() != HttpVersion.HTTP_1_1 ? "a WebSocket needs HTTP/1.1"
                : !isUpgrade(request) ? "no Upgrade: websocket"
                : !fields.containsToken("Connection", "upgrade") ? "no Connection: Upgrade"
                : !HandshakeKeys.isValidKey(key) ? "no valid Sec-WebSocket-Key"
                : null;
        if (problem != null) {
            exchange.respond(HttpResponse.text(400, problem + "\n"));
            throw new WebSocketHandshakeException(400, problem);
        }
        if (!"13".equals(fields.get("Sec-WebSocket-Version"))) {
            exchange.respond(new HttpResponse(426, HttpHeaders.of("Sec-WebSocket-Version", "13", "Content-Type", "text/plain"),
                    "WebSocket version 13 only\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
            throw new WebSocketHandshakeException(426, "WebSocket version " + fields.get("Sec-WebSocket-Version"));
        }
        HttpHeaders answer = HttpHeaders.of("Upgrade", "websocket", "Sec-WebSocket-Accept", HandshakeKeys.accept(key));
        String subprotocol = chooseSubprotocol(fields, options);
        if (subprotocol != null) {
            answer.add("Sec-WebSocket-Protocol", subprotocol);
        }
        DeflateAgreement deflate = options.compression()
                ? DeflateAgreement.serverAccept(ExtensionOffer.parse(fields.getAll("Sec-WebSocket-Extensions")),
                        options.serverNoContextTakeover(), options.clientNoContextTakeover())
                : null;
        if (deflate != null) {
            answer.add("Sec-WebSocket-Extensions", deflate.header());
        }
        WebSocketProtocol protocol = new WebSocketProtocol(getRunningLoop(), true, options, listener, deflate, subprotocol);
        exchange.takeOver(101, answer, protocol);
        return protocol;
    }

    /** The first of the server's subprotocols the client offered (the server's preference), or null. */
    private static String chooseSubprotocol(HttpHeaders fields, WebSocketOptions options) {
        for (String mine : options.subprotocols()) {
            if (fields.containsToken("Sec-WebSocket-Protocol", mine)) {
                return mine;
            }
        }
        return null;
    }
}
