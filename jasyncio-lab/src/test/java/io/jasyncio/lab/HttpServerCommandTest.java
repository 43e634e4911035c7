package io.jasyncio.lab;

import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.client.HttpClient;
import io.jasyncio.http.websocket.WebSocket;
import io.jasyncio.http.websocket.WebSocketClient;
import io.jasyncio.http.websocket.WebSocketMessage;
import io.jasyncio.http.websocket.WebSocketOptions;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./jasyncio http-server} in a child JVM, on each loop and on a group: it prints where it
 * listens, then answers keep-alive GETs (through jasyncio-http's client) with its one response,
 * and echoes WebSocket messages at {@code /ws}.
 */
@Timeout(60)
class HttpServerCommandTest {

    @ParameterizedTest
    @CsvSource({"nio, 1, -1", "epoll, 1, 16384", "io_uring, 1, -1", "nio, 2, 16384"})
    void servesItsResponse(String loop, int loops, int size) throws Exception {
        List<String> command = new ArrayList<>(List.of(new File(System.getProperty("java.home"), "bin/java").getPath(),
                "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED", "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "http-server", "--port", "0", "--loop", loop, "--loops", String.valueOf(loops),
                "--size", String.valueOf(size)));
        Process server = new ProcessBuilder(command).redirectErrorStream(true).start();
        EventLoop clientLoop = EventLoops.newEventLoop();
        Thread clientThread = Thread.ofPlatform().start(clientLoop::runForever);
        try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
             HttpClient client = HttpClient.create(clientLoop)) {
            List<String> lines = new ArrayList<>();
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("listening on ")) {
                lines.add(line);
            }
            assertTrue(line != null, "no 'listening on' line: " + lines);
            String url = "http://127.0.0.1:" + line.substring(line.lastIndexOf(':') + 1) + "/";
            for (int i = 0; i < 3; i++) {
                HttpResponse response = client.getAsync(url).get(20, TimeUnit.SECONDS);
                assertEquals(200, response.status());
                assertTrue(response.header("Date") != null, "the server sends a Date");
                if (size < 0) {
                    assertEquals(HttpServerCommand.HELLO, response.bodyText());
                } else {
                    assertEquals(size, response.body().length);
                }
            }
            echoesOverWebSocket(clientLoop, "ws://127.0.0.1:" + line.substring(line.lastIndexOf(':') + 1) + "/ws");
        } finally {
            server.destroyForcibly();
            server.waitFor(10, TimeUnit.SECONDS);
            clientLoop.callSoonThreadsafe(clientLoop::stop);
            clientThread.join(10_000);
            clientLoop.close();
        }
    }

    /** The WebSocket echo at /ws: text and binary back as they came. */
    private static void echoesOverWebSocket(EventLoop clientLoop, String url) throws Exception {
        java.util.concurrent.Future<Void> check = io.jasyncio.Asyncio.runCoroutineThreadsafe(() -> {
            WebSocket ws = WebSocketClient.connect(clientLoop, url, WebSocketOptions.defaults());
            ws.send("Hello, κόσμε");
            WebSocketMessage text = ws.receive();
            assertTrue(text.isText());
            assertEquals("Hello, κόσμε", text.text());
            ws.send(new byte[]{0, 1, 2, (byte) 0xff});
            WebSocketMessage binary = ws.receive();
            assertTrue(!binary.isText());
            assertEquals(java.util.List.of((byte) 0, (byte) 1, (byte) 2, (byte) -1),
                    java.util.List.of(binary.bytes()[0], binary.bytes()[1], binary.bytes()[2], binary.bytes()[3]));
            ws.close();
            assertEquals(1000, ws.closeCode());
        }, clientLoop);
        check.get(20, TimeUnit.SECONDS);
    }
}
