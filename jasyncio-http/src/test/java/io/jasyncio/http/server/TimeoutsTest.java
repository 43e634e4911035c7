package io.jasyncio.http.server;

import io.jasyncio.Asyncio;
import io.jasyncio.http.HttpResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The head (slowloris), idle and body timeouts over real sockets. Each waits for the server's own
 * act (its 408, its close), not for a clock; only the other timeouts are set far out of the way.
 */
class TimeoutsTest {
    private static HttpServer start(HttpServerOptions options) throws java.io.IOException {
        return HttpServer.start(getRunningLoop(), request -> HttpResponse.text(200, "ok " + request.body().length),
                "127.0.0.1", 0, options);
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aSlowHeadGets408EvenWhileBytesTrickleIn(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start(HttpServerOptions.defaults().withHeaderTimeout(0.3).withIdleTimeout(60));
            TestClient client = TestClient.connect(server.port());
            double began = getRunningLoop().time();
            client.send("GET / HTTP/1.1\r\n");
            // slowloris: a field every 50 ms keeps the connection busy but never ends the head
            io.jasyncio.task.Task<Void> trickle = io.jasyncio.Asyncio.createTask(() -> {
                for (int i = 0; i < 200; i++) {
                    Asyncio.sleep(0.05);
                    client.send("X-" + i + ": y\r\n");
                }
                return null;
            });
            TestClient.Received r = client.response();
            trickle.cancel();
            assertEquals(408, r.status());
            assertEquals("close", r.header("Connection"));
            assertTrue(getRunningLoop().time() - began >= 0.3, "not before the timeout");
            client.readUntilEof();
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void anIdleKeepAliveConnectionClosesQuietly(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start(HttpServerOptions.defaults().withIdleTimeout(0.2));
            TestClient client = TestClient.connect(server.port());
            double sent = getRunningLoop().time(); // before the server's idle clock starts
            client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, client.response().status());
            assertEquals("", new String(client.readUntilEof(), StandardCharsets.ISO_8859_1), "closed without a word");
            assertTrue(getRunningLoop().time() - sent >= 0.2, "not before the timeout");
            HttpTesting.until(() -> server.connectionCount() == 0);
            // a connection that never sends a byte is idle too
            TestClient silent = TestClient.connect(server.port());
            assertEquals(0, silent.readUntilEof().length);
            client.close();
            silent.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aStalledBodyGets408(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start(HttpServerOptions.defaults().withBodyReadTimeout(0.3));
            TestClient client = TestClient.connect(server.port());
            client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc");
            TestClient.Received r = client.response();
            assertEquals(408, r.status());
            assertTrue(r.text().contains("body"), r.text());
            assertEquals(0, client.readUntilEof().length);
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aBodyThatKeepsComingIsNotTimedOut(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start(HttpServerOptions.defaults().withBodyReadTimeout(0.6));
            TestClient client = TestClient.connect(server.port());
            client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\n\r\n");
            for (int i = 0; i < 16; i++) { // 16 x 50 ms: longer than the timeout, never stalled that long
                Asyncio.sleep(0.05);
                client.send("b");
            }
            assertEquals("ok 16", client.response().text());
            client.close();
            server.shutdown(5);
            return null;
        });
    }
}
