package io.jasyncio.http.websocket;

import io.jasyncio.http.server.HttpServer;
import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The exchange every interop test runs, in both directions, against each real peer. */
final class PeerChecks {
    static final WebSocketOptions OPTIONS = WebSocketOptions.defaults().withMaxMessageSize(2 << 20);

    /** What a peer client prints after running its exchange against our echo server. */
    static final List<String> CLIENT_LINES = List.of("extensions permessage-deflate", "text true", "binary true",
            "mebibyte true", "fragmented true", "pong true", "closed 4000 done", "server closed 4001 closing 4001");

    private PeerChecks() {
    }

    /** Coroutine: our client against a peer's echo server at {@code base}: every kind of message, a ping, both close paths. */
    static void ourClientAgainst(EventLoop loop, String base, WebSocketOptions options, String extensions) throws IOException {
        WebSocket ws = WebSocketClient.connect(loop, base + "/echo", options);
        assertEquals(extensions, ws.extensions());
        ws.send("Hello, κόσμε");
        WebSocketMessage text = ws.receive();
        assertTrue(text.isText());
        assertEquals("Hello, κόσμε", text.text());
        byte[] bytes = new byte[256];
        for (int i = 0; i < 256; i++) {
            bytes[i] = (byte) i;
        }
        ws.send(bytes);
        assertArrayEquals(bytes, ws.receive().bytes());
        byte[] big = new byte[1 << 20];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 7 % 251);
        }
        ws.send(big);
        WebSocketMessage back = ws.receive();
        assertTrue(!back.isText());
        assertArrayEquals(big, back.bytes());
        ws.sendFragmented(true, "frag".getBytes(StandardCharsets.UTF_8), "κό".getBytes(StandardCharsets.UTF_8),
                "σμε".getBytes(StandardCharsets.UTF_8));
        assertEquals("fragκόσμε", ws.receive().text());
        String repetitive = "all work and no play ".repeat(2000);
        ws.send(repetitive);
        assertEquals(repetitive, ws.receive().text());
        assertTrue(waitFor(ws.ping("are you there".getBytes(StandardCharsets.US_ASCII)), 5.0) >= 0);
        ws.close(4000, "done");
        assertEquals(4000, ws.closeCode(), "the peer echoed the close code");

        WebSocket closing = WebSocketClient.connect(loop, base + "/close/4001", options);
        WebSocketClosedException e = assertThrows(WebSocketClosedException.class, closing::receive);
        assertEquals(4001, e.code());
        assertEquals("closing 4001", e.reason());
    }

    /** Coroutine: a peer client (its command) against our echo server; its lines must be {@link #CLIENT_LINES}. */
    static void peerClientAgainstUs(Path dir, String... command) throws IOException {
        HttpServer http = EchoServer.start(OPTIONS);
        try {
            String[] withUrl = java.util.Arrays.copyOf(command, command.length + 1);
            withUrl[command.length] = "ws://127.0.0.1:" + http.port();
            List<String> lines = Peers.runClient(dir, withUrl).stream().map(l -> l.toLowerCase(Locale.ROOT)).toList();
            assertEquals(CLIENT_LINES, lines);
        } finally {
            http.close();
        }
    }
}
