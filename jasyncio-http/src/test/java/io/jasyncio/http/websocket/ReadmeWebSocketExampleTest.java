package io.jasyncio.http.websocket;

import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.junit.AsyncTest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's WebSocket example, as printed there (the lines between the markers, with its
 * port 8080 made 0 and the client's URL the server's), run on a loop; and the check that the
 * README still prints those lines.
 */
class ReadmeWebSocketExampleTest {
    @AsyncTest(debug = false)
    void theReadmesServerAndClientWork() throws IOException {
        // README begin
        // a server: every message back as it came, until the client closes
        HttpServer server = HttpServer.startStreaming(getRunningLoop(),
                WebSocketServer.handler(WebSocketOptions.defaults(), session -> {
                    for (WebSocketMessage message : session.messages()) {
                        session.send(message);
                    }
                }), "127.0.0.1", 0, HttpServerOptions.defaults());

        // a client (wss:// URLs go over TLS)
        WebSocket ws = WebSocketClient.connect(getRunningLoop(), "ws://127.0.0.1:" + server.port() + "/", WebSocketOptions.defaults());
        ws.send("Hello");
        String answer = ws.receive().text();
        ws.close();
        // README end
        assertEquals("Hello", answer);
        server.close();
    }

    @Test
    void theReadmePrintsTheseLines() throws IOException {
        String readme = Files.readString(Path.of("../README.md"));
        String source = Files.readString(Path.of("src/test/java/io/jasyncio/http/websocket/ReadmeWebSocketExampleTest.java"));
        String block = source.substring(source.indexOf("// README begin\n") + 16, source.indexOf("        // README end"));
        String printed = block.lines().map(l -> l.length() >= 8 ? l.substring(8) : l).reduce("", (a, b) -> a + b + "\n")
                .replace("\"127.0.0.1\", 0,", "\"127.0.0.1\", 8080,")
                .replace("\"ws://127.0.0.1:\" + server.port() + \"/\"", "\"ws://127.0.0.1:8080/\"");
        assertTrue(readme.contains(printed), "the README's WebSocket example differs from:\n" + printed);
    }
}
