package io.jasyncio.http.websocket;

import io.jasyncio.http.server.HttpServer;
import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Our client against our server over real sockets, on every loop and both task engines. */
@OnEveryLoop
@EveryEngine
class OwnPeerTest {
    private static final WebSocketOptions PLAIN = WebSocketOptions.defaults().withCompression(false);

    private static void echoesEverything(EventLoop loop, WebSocketOptions server, WebSocketOptions client, String extensions)
            throws IOException {
        HttpServer http = EchoServer.start(server);
        WebSocket ws = WebSocketClient.connect(loop, EchoServer.url(http, "/echo"), client);
        assertEquals(extensions, ws.extensions());
        ws.send("Hello, κόσμε");
        assertEquals("Hello, κόσμε", ws.receive().text());
        byte[] big = new byte[1 << 20];
        new Random(1).nextBytes(big);
        ws.send(big);
        WebSocketMessage back = ws.receive();
        assertFalse(back.isText());
        assertArrayEquals(big, back.bytes());
        ws.send("");
        assertEquals("", ws.receive().text());
        ws.sendFragmented(true, "frag".getBytes(StandardCharsets.UTF_8), new byte[]{(byte) 0xce}, new byte[]{(byte) 0xba});
        assertEquals("fragκ", ws.receive().text());
        String repetitive = "all work and no play ".repeat(1000);
        ws.send(repetitive);
        assertEquals(repetitive, ws.receive().text());
        ws.close();
        assertEquals(1000, ws.closeCode());
        assertThrows(WebSocketClosedException.class, () -> ws.send("too late"));
        http.close();
    }

    // debug off: deflating a mebibyte takes longer than debug mode's slow-callback mark
    @AsyncTest(debug = false)
    void echoesTextBinaryFragmentsAndAMebibyteCompressed(EventLoop loop) throws IOException {
        echoesEverything(loop, WebSocketOptions.defaults(), WebSocketOptions.defaults(), "permessage-deflate");
    }

    @AsyncTest(debug = false)
    void echoesWithoutContextTakeover(EventLoop loop) throws IOException {
        WebSocketOptions noTakeover = WebSocketOptions.defaults().withNoContextTakeover(true, true);
        echoesEverything(loop, WebSocketOptions.defaults(), noTakeover,
                "permessage-deflate; server_no_context_takeover; client_no_context_takeover");
    }

    @AsyncTest(debug = false)
    void echoesUncompressed(EventLoop loop) throws IOException {
        echoesEverything(loop, WebSocketOptions.defaults(), PLAIN, null);
        echoesEverything(loop, PLAIN, WebSocketOptions.defaults(), null);
    }

    @AsyncTest(debug = false)
    void aPingIsAnsweredWithItsPong(EventLoop loop) throws IOException {
        HttpServer http = EchoServer.start(PLAIN);
        WebSocket ws = WebSocketClient.connect(loop, EchoServer.url(http, "/echo"), PLAIN);
        double first = waitFor(ws.ping("one".getBytes(StandardCharsets.US_ASCII)), 5.0);
        assertTrue(first >= 0);
        var a = ws.ping();
        var b = ws.ping();
        assertTrue(waitFor(b, 5.0) >= 0 && a.isDone(), "a pong answers the pings before it too");
        ws.close();
        http.close();
    }

    @AsyncTest(debug = false)
    void everyClosePathReportsItsCode(EventLoop loop) throws IOException {
        HttpServer http = EchoServer.start(PLAIN);
        // the server closes with a code of its own
        WebSocket goingAway = WebSocketClient.connect(loop, EchoServer.url(http, "/close/1001"), PLAIN);
        WebSocketClosedException e = assertThrows(WebSocketClosedException.class, goingAway::receive);
        assertEquals(1001, e.code());
        assertEquals("closing 1001", e.reason());
        assertTrue(e.isNormal());
        // and with an application's code, which is no normal close: messages() throws it
        WebSocket app = WebSocketClient.connect(loop, EchoServer.url(http, "/close/4321"), PLAIN);
        var failure = assertThrows(java.io.UncheckedIOException.class, () -> app.messages().iterator().hasNext());
        assertEquals(4321, ((WebSocketClosedException) failure.getCause()).code());
        // the client closes with an application's code and reason
        WebSocket client = WebSocketClient.connect(loop, EchoServer.url(http, "/echo"), PLAIN);
        client.close(4000, "bye");
        assertEquals(4000, client.closeCode(), "the server echoed the code");
        assertEquals("bye", client.closeReason());
        // the handler returned: 1000
        WebSocket done = WebSocketClient.connect(loop, EchoServer.url(http, "/close/1000"), PLAIN);
        assertFalse(done.messages().iterator().hasNext());
        assertEquals(1000, done.closeCode());
        http.close();
    }

    @AsyncTest(debug = false, failOnLoopErrors = false)
    void aSessionThatThrowsClosesWith1011(EventLoop loop) throws IOException {
        List<Object> reported = new ArrayList<>();
        loop.setExceptionHandler((l, context) -> reported.add(context.get("exception")));
        HttpServer http = EchoServer.start(PLAIN);
        WebSocket ws = WebSocketClient.connect(loop, EchoServer.url(http, "/fail"), PLAIN);
        WebSocketClosedException e = assertThrows(WebSocketClosedException.class, ws::receive);
        assertEquals(1011, e.code());
        HttpTestingLite.until(() -> !reported.isEmpty());
        assertTrue(reported.getFirst() instanceof IllegalStateException s && s.getMessage().contains("on purpose"), "" + reported);
        http.close();
    }

    @AsyncTest(debug = false)
    void theServerPicksItsPreferredSubprotocolTheClientOffered(EventLoop loop) throws IOException {
        HttpServer http = EchoServer.start(PLAIN.withSubprotocols("chat.v2", "chat.v1"));
        WebSocket ws = WebSocketClient.connect(loop, EchoServer.url(http, "/echo"), PLAIN.withSubprotocols("chat.v1", "chat.v2"));
        assertEquals("chat.v2", ws.subprotocol());
        ws.close();
        WebSocket none = WebSocketClient.connect(loop, EchoServer.url(http, "/echo"), PLAIN.withSubprotocols("other"));
        assertNull(none.subprotocol());
        none.close();
        http.close();
    }

    @AsyncTest(debug = false)
    void aNonUpgradeAnswerFailsTheClientsHandshake(EventLoop loop) throws IOException {
        HttpServer http = io.jasyncio.http.server.HttpServer.start(loop,
                request -> io.jasyncio.http.HttpResponse.text(403, "no"), "127.0.0.1", 0,
                io.jasyncio.http.server.HttpServerOptions.defaults());
        WebSocketHandshakeException e = assertThrows(WebSocketHandshakeException.class,
                () -> WebSocketClient.connect(loop, EchoServer.url(http, "/echo"), PLAIN));
        assertEquals(403, e.status());
        http.close();
    }

    @AsyncTest(debug = false)
    void shuttingTheHttpServerDownClosesItsWebSockets(EventLoop loop) throws IOException {
        HttpServer http = EchoServer.start(PLAIN);
        WebSocket ws = WebSocketClient.connect(loop, EchoServer.url(http, "/echo"), PLAIN);
        ws.send("x");
        assertEquals("x", ws.receive().text());
        http.shutdown(0.5); // returns once our client answered the close (or at the grace deadline)
        WebSocketClosedException e = assertThrows(WebSocketClosedException.class, ws::receive);
        assertEquals(CloseCodes.GOING_AWAY, e.code(), "the server goes away with the closing handshake (RFC 6455 §7.4.1)");
    }
}
