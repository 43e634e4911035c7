package io.jasyncio.http.websocket;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.ConnectOptions;
import io.jasyncio.net.Connection;
import io.jasyncio.net.Network;
import io.jasyncio.net.TlsOptions;
import io.jasyncio.net.Transport;
import io.jasyncio.task.Timeout;

import java.io.IOException;
import java.net.URI;

import static io.jasyncio.Asyncio.await;

/**
 * Opens WebSocket connections to {@code ws://} and {@code wss://} URLs on a loop: the TCP (and
 * TLS) connection and the opening handshake, within {@link WebSocketOptions#openTimeout()}.
 * <pre>{@code
 * WebSocket ws = WebSocketClient.connect(loop, "ws://127.0.0.1:8080/chat", WebSocketOptions.defaults());
 * ws.send("hello");
 * String answer = ws.receive().text();
 * ws.close();
 * }</pre>
 */
public final class WebSocketClient {
    private WebSocketClient() {
    }

    /** Coroutine: connects to {@code url} as a coroutine session. */
    public static WebSocket connect(EventLoop loop, String url, WebSocketOptions options) throws IOException {
        WebSocket ws = new WebSocket(options);
        ws.attach(open(loop, url, options, ws.listener()));
        return ws;
    }

    /** Coroutine: connects to {@code url}, its events to {@code listener} (the callback form). */
    public static WebSocketConnection connect(EventLoop loop, String url, WebSocketOptions options,
                                              WebSocketListener listener) throws IOException {
        return open(loop, url, options, listener);
    }

    private static WebSocketProtocol open(EventLoop loop, String url, WebSocketOptions options, WebSocketListener listener)
            throws IOException {
        URI uri = URI.create(url);
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("ws") && !scheme.equals("wss") || uri.getHost() == null) {
            throw new IllegalArgumentException("a ws:// or wss:// URL, not " + url);
        }
        if (uri.getRawFragment() != null) {
            throw new IllegalArgumentException("a WebSocket URL has no fragment (RFC 6455 §3): " + url);
        }
        boolean secure = scheme.equals("wss");
        String host = uri.getHost();
        String bareHost = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        int port = uri.getPort() >= 0 ? uri.getPort() : secure ? 443 : 80;
        String hostField = uri.getPort() >= 0 ? host + ":" + port : host;
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String target = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        ConnectOptions connect = ConnectOptions.defaults();
        if (secure) {
            connect = connect.withTls(options.tls() != null ? options.tls() : TlsOptions.systemDefault());
        }
        ClientHandshake handshake = new ClientHandshake(loop, target, hostField, options, listener);
        ConnectOptions how = connect;
        Transport[] opened = new Transport[1];
        try {
            return Timeout.after(options.openTimeout()).run(() -> {
                Connection<ClientHandshake> c = Network.createConnection(loop, () -> handshake, bareHost, port, how);
                opened[0] = c.transport();
                return await(handshake.result());
            });
        } catch (IOException | RuntimeException | Error e) {
            if (opened[0] != null) {
                opened[0].abort();
            }
            throw e;
        }
    }
}
