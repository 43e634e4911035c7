package io.jasyncio.http.websocket;

import io.jasyncio.Asyncio;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.subprocess.Stdio;
import io.jasyncio.subprocess.Subprocess;
import io.jasyncio.subprocess.SubprocessOptions;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * {@link HttpServer#shutdown} ends open WebSockets with the closing handshake, 1001 (Going Away,
 * RFC 6455 §7.4.1), as the servers of Go, Node's ws and Python's websockets do, and waits for
 * the peer's close within its grace period; real peers: the JDK's WebSocket client and Python's
 * websockets. The grace period is long (10 s): the server's session seeing the peer's own close
 * reason shows the server waited for it instead of dropping the connection.
 */
@OnEveryLoop
class ShutdownGoingAwayTest {
    private static final double GRACE = 10;
    private static Path script;

    @BeforeAll
    static void requirePeer() throws Exception {
        Peers.requirePythonPeers();
        script = Peers.resource("ws_shutdown_client.py");
    }

    /** Our server: each session is completed into {@code sessions} as it opens, then echoes until closed. */
    private static HttpServer start(EventLoop loop, Future<WebSocket> session) throws IOException {
        return HttpServer.startStreaming(loop, WebSocketServer.handler(WebSocketOptions.defaults(), ws -> {
            session.setResult(ws);
            for (WebSocketMessage m : ws.messages()) {
                ws.send(m);
            }
        }), "127.0.0.1", 0, HttpServerOptions.defaults());
    }

    @AsyncTest(timeout = 30)
    void theJdkClientSeesGoingAway(EventLoop loop) throws Exception {
        Future<WebSocket> session = loop.createFuture();
        HttpServer server = start(loop, session);
        CompletableFuture<String> closedWith = new CompletableFuture<>();
        try (HttpClient client = HttpClient.newHttpClient()) {
            java.net.http.WebSocket peer = Asyncio.await(client.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/"), new java.net.http.WebSocket.Listener() {
                        @Override
                        public CompletionStage<?> onClose(java.net.http.WebSocket ws, int code, String reason) {
                            closedWith.complete(code + " " + reason);
                            return ws.sendClose(code, "the jdk goes too"); // the peer's answer the server waits for
                        }
                    }));
            WebSocket ours = waitFor(session, 10.0);
            server.shutdown(GRACE);
            assertEquals("1001 server shutting down", waitFor(Asyncio.wrapFuture(closedWith), 10.0));
            assertFalse(ours.isOpen());
            assertEquals(CloseCodes.GOING_AWAY, ours.closeCode());
            assertEquals("the jdk goes too", ours.closeReason(), "the server waited for the peer's close");
            assertEquals(0, server.connectionCount());
            peer.abort();
        }
    }

    @AsyncTest(timeout = 30, debug = false)
    void pythonWebsocketsSeesGoingAwayCleanly(EventLoop loop) throws Exception {
        Future<WebSocket> session = loop.createFuture();
        HttpServer server = start(loop, session);
        Subprocess peer = Asyncio.createSubprocessExec(SubprocessOptions.pipes().withStderr(Stdio.STDOUT),
                Peers.PYTHON, script.toString(), "ws://127.0.0.1:" + server.port() + "/");
        try {
            WebSocket ours = waitFor(session, 20.0);
            server.shutdown(GRACE);
            Subprocess.Output out = waitFor(() -> peer.communicate(null), 10.0);
            List<String> lines = new String(out.stdout(), StandardCharsets.UTF_8).lines().toList();
            assertEquals(List.of("open", "closed 1001 clean"), lines, "the closing handshake completed with 1001");
            assertEquals(0, peer.returncode());
            assertFalse(ours.isOpen());
            assertEquals(CloseCodes.GOING_AWAY, ours.closeCode());
        } finally {
            if (peer.returncode() == null) {
                peer.kill();
                peer.waitFor();
            }
        }
    }
}
