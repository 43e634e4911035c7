package io.jasyncio.http.websocket;

import io.jasyncio.http.server.HttpServer;
import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.Server;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.net.StreamConnection;
import io.jasyncio.net.Streams;
import io.jasyncio.task.TimeoutException;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The opening handshake's refusals and deadline, over real sockets on every loop. */
@OnEveryLoop
class HandshakeTest {
    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

    /** Coroutine: sends {@code request} on a new connection and returns the answer's head. */
    private static String answer(int port, String request) throws IOException {
        StreamConnection c = Streams.openConnection(getRunningLoop(), "127.0.0.1", port, null, 64 * 1024);
        c.writer().write(request.getBytes(StandardCharsets.ISO_8859_1));
        String head = new String(c.reader().readuntil("\r\n\r\n"), StandardCharsets.ISO_8859_1);
        c.close();
        return head;
    }

    private static String upgrade(String version, String key) {
        return "GET /echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + (key == null ? "" : "Sec-WebSocket-Key: " + key + "\r\n")
                + "Sec-WebSocket-Version: " + version + "\r\n\r\n";
    }

    @AsyncTest(debug = false)
    void theServerAnswersTheRfcsExampleAndRefusesTheRest(EventLoop loop) throws IOException {
        HttpServer http = EchoServer.start(WebSocketOptions.defaults());
        String ok = answer(http.port(), upgrade("13", KEY));
        assertTrue(ok.startsWith("HTTP/1.1 101 Switching Protocols\r\n"), ok);
        assertTrue(ok.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"), ok);
        assertTrue(ok.contains("Upgrade: websocket\r\n") && ok.contains("Connection: Upgrade\r\n"), ok);
        String version = answer(http.port(), upgrade("8", KEY));
        assertTrue(version.startsWith("HTTP/1.1 426 ") && version.contains("Sec-WebSocket-Version: 13\r\n"), version);
        assertTrue(answer(http.port(), upgrade("13", null)).startsWith("HTTP/1.1 400 "), "no key");
        assertTrue(answer(http.port(), upgrade("13", "c2hvcnQ=")).startsWith("HTTP/1.1 400 "), "a key of 5 bytes");
        http.close();
    }

    @AsyncTest(debug = false)
    void aServerThatNeverAnswersMeetsTheOpenTimeout(EventLoop loop) throws IOException {
        Server silent = Streams.startServer(getRunningLoop(), (reader, writer) -> reader.read(-1), "127.0.0.1", 0,
                ServerOptions.defaults(), 64 * 1024);
        int port = ((InetSocketAddress) silent.addresses().getFirst()).getPort();
        assertThrows(TimeoutException.class, () -> WebSocketClient.connect(loop, "ws://127.0.0.1:" + port + "/",
                WebSocketOptions.defaults().withOpenTimeout(0.2)));
        silent.close();
    }

    @AsyncTest(debug = false)
    void aWrongAcceptKeyFailsTheClient(EventLoop loop) throws IOException {
        Server liar = Streams.startServer(getRunningLoop(), (reader, writer) -> {
            reader.readuntil("\r\n\r\n");
            writer.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            reader.read(-1);
        }, "127.0.0.1", 0, ServerOptions.defaults(), 64 * 1024);
        int port = ((InetSocketAddress) liar.addresses().getFirst()).getPort();
        WebSocketHandshakeException e = assertThrows(WebSocketHandshakeException.class,
                () -> WebSocketClient.connect(loop, "ws://127.0.0.1:" + port + "/", WebSocketOptions.defaults()));
        assertEquals("a wrong Sec-WebSocket-Accept", e.getMessage());
        liar.close();
    }
}
