package io.jasyncio.http.server;

import io.jasyncio.Asyncio;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.sync.Event;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Graceful shutdown: no new connections, idle ones closed at once, requests in flight finished, the rest dropped at the deadline. */
@EveryEngine
class ShutdownTest {
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void finishesRequestsInFlightAndClosesIdleConnections(String loop) {
        HttpTesting.run(loop, 20, () -> {
            Event release = new Event();
            Event waiting = new Event();
            HttpServer server = HttpServer.start(getRunningLoop(), request -> {
                if (request.path().equals("/wait")) {
                    waiting.set();
                    release.await();
                }
                return HttpResponse.text(200, "done " + request.path());
            }, "127.0.0.1", 0, HttpServerOptions.defaults());
            int port = server.port();
            TestClient idle = TestClient.connect(port);
            idle.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, idle.response().status());
            TestClient busy = TestClient.connect(port);
            busy.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n");
            waiting.await();

            Task<Void> shutdown = Asyncio.createTask(() -> {
                server.shutdown(10);
                return null;
            });
            assertEquals(0, idle.readUntilEof().length, "the idle connection is closed at once");
            assertThrows(IOException.class, () -> TestClient.connect(port), "no longer accepting");
            assertFalse(shutdown.isDone(), "waits for the request in flight");

            release.set();
            TestClient.Received r = busy.response();
            assertEquals("done /wait", r.text());
            assertEquals("close", r.header("Connection"));
            assertEquals(0, busy.readUntilEof().length);
            Asyncio.waitFor(shutdown, 5.0);
            assertEquals(0, server.connectionCount());
            idle.close();
            busy.close();
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void dropsWhatIsLeftAtTheDeadline(String loop) {
        HttpTesting.run(loop, 20, () -> {
            Event waiting = new Event();
            Event never = new Event();
            HttpServer server = HttpServer.start(getRunningLoop(), request -> {
                waiting.set();
                never.await();
                return HttpResponse.text(200, "unreachable");
            }, "127.0.0.1", 0, HttpServerOptions.defaults());
            TestClient stuck = TestClient.connect(server.port());
            stuck.send("GET /stuck HTTP/1.1\r\nHost: x\r\n\r\n");
            waiting.await();
            double began = getRunningLoop().time();
            server.shutdown(0.2);
            assertTrue(getRunningLoop().time() - began >= 0.2, "waited for the deadline");
            assertEquals(0, server.connectionCount());
            try {
                assertEquals(0, stuck.readUntilEof().length);
            } catch (IOException reset) {
                // dropped: a reset is as good as an EOF here
            }
            stuck.close();
            return null;
        });
    }
}
