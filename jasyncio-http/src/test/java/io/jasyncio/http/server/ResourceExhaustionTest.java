package io.jasyncio.http.server;

import io.jasyncio.http.HttpResponse;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile and careless clients over real sockets, on every loop: what they make the server hold
 * is measured (the heap after a GC), an ordinary client is served meanwhile, and every attacking
 * connection is closed within its deadline.
 */
@EveryEngine
class ResourceExhaustionTest {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private static final int MIB = 1024 * 1024;

    /** The heap in use after a full collection. */
    static long heapAfterGc() {
        MEMORY.gc();
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    private static HttpServer start(HttpServerOptions options) throws java.io.IOException {
        return HttpServer.start(getRunningLoop(), request -> HttpResponse.text(200, "ok " + request.body().length),
                "127.0.0.1", 0, options);
    }

    /** Coroutine: an ordinary GET on a fresh connection is answered. */
    private static void ordinaryGetIsServed(HttpServer server) throws java.io.IOException {
        TestClient client = TestClient.connect(server.port());
        client.send("GET /ordinary HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals("ok 0", client.response().text());
        client.close();
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void bodiesAnnouncedAndNeverSentCostNothing(String loop) {
        HttpTesting.run(loop, 30, () -> {
            HttpServer server = start(HttpServerOptions.defaults());
            int attackers = 200; // x 16 MiB announced: 3.2 GB if the announcement were believed
            long before = heapAfterGc();
            List<TestClient> clients = new ArrayList<>();
            for (int i = 0; i < attackers; i++) {
                TestClient c = TestClient.connect(server.port());
                c.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + 16 * MIB + "\r\n\r\n");
                clients.add(c);
            }
            HttpTesting.until(() -> server.connections().list().stream().filter(HttpConnection::inRequest).count() == attackers);
            long grown = heapAfterGc() - before;
            assertTrue(grown < 32 * MIB, "the heap grew by " + grown / MIB + " MiB for " + attackers + " announced bodies");
            ordinaryGetIsServed(server);
            for (TestClient c : clients) {
                c.close();
            }
            server.close();
            return null;
        });
    }
}
