package io.jasyncio.http.server;

import io.jasyncio.Asyncio;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.StandardSocketOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile and careless clients over real sockets, on every loop: many connections announcing
 * large bodies, bodies and heads trickled, responses read at a trickle, clients leaving while
 * their handler runs. In each, what the server holds is measured (the heap after a GC, the body
 * budget), an ordinary client is served within a second meanwhile, and every attacking connection
 * is closed within its deadline (the deadlines are set short here, so the suite takes seconds).
 */
@EveryEngine
class ResourceExhaustionTest {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private static final int MIB = 1024 * 1024;
    /** The slack on a deadline: the server's sweep, a GC, a busy machine. */
    private static final double SLACK = 0.7;
    /** No floor or deadline gets in the way of what a test is not about. */
    private static final HttpServerOptions QUIET = HttpServerOptions.defaults().withMinRequestBodyRate(null)
            .withMinResponseRate(null);

    /** The heap in use after a full collection. */
    static long heapAfterGc() {
        MEMORY.gc();
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    private static HttpServer start(HttpServerOptions options) throws IOException {
        return HttpServer.start(getRunningLoop(), request -> HttpResponse.text(200, "ok " + request.body().length),
                "127.0.0.1", 0, options);
    }

    /** Coroutine: an ordinary GET on a fresh connection is answered, within a second. */
    private static void ordinaryGetIsServed(HttpServer server) throws IOException {
        double began = getRunningLoop().time();
        TestClient client = TestClient.connect(server.port());
        client.send("GET /ordinary HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(200, client.response().status());
        client.close();
        double took = getRunningLoop().time() - began;
        assertTrue(took < 1, "an ordinary GET took " + took + " s");
    }

    /** Coroutine: the attacker's connection is answered {@code status} and closed, by {@code deadline} (loop time). */
    private static void refusedBy(TestClient attacker, int status, double deadline) throws IOException {
        Task<TestClient.Received> answer = Asyncio.createTask(() -> attacker.response());
        HttpTesting.within(Math.max(deadline - getRunningLoop().time(), 0) + 0.5, answer::isDone,
                () -> "the attacker is not answered by its deadline");
        TestClient.Received r = answer.result();
        assertEquals(status, r.status(), r.text());
        assertEquals(0, attacker.readUntilEof().length);
        double now = getRunningLoop().time();
        assertTrue(now <= deadline, "closed " + (now - deadline) + " s after its deadline");
        attacker.close();
    }

    /**
     * Coroutine: {@code count} attackers on {@code server}, each sending {@code head}, then a piece
     * ({@code piece} of its number) every {@code every} seconds, up to a thousand; all answered
     * {@code status} and closed by {@code deadline} seconds after they began, while an ordinary
     * GET is served.
     */
    private static void trickleIsRefused(HttpServer server, int count, String head, java.util.function.IntFunction<byte[]> piece,
                                         double every, int status, double deadline) throws IOException {
        List<TestClient> attackers = new ArrayList<>();
        List<Task<Void>> trickles = new ArrayList<>();
        double began = getRunningLoop().time();
        for (int i = 0; i < count; i++) {
            TestClient c = TestClient.connect(server.port());
            c.send(head);
            attackers.add(c);
            trickles.add(Asyncio.createTask(() -> {
                for (int n = 0; n < 1000 && !c.connection.writer().isClosing(); n++) { // until the server drops it
                    c.send(piece.apply(n));
                    Asyncio.sleep(every);
                }
            }));
        }
        ordinaryGetIsServed(server);
        for (TestClient c : attackers) {
            refusedBy(c, status, began + deadline + SLACK);
        }
        trickles.forEach(Task::cancel);
    }

    private static long inRequest(HttpServer server) {
        return server.connections().list().stream().filter(HttpConnection::inRequest).count();
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void bodiesAnnouncedAndNeverSentCostNothing(String loop) {
        HttpTesting.run(loop, 30, () -> {
            HttpServer server = start(QUIET);
            int attackers = 200; // x 16 MiB announced: 3.2 GB if the announcement were believed
            long before = heapAfterGc();
            List<TestClient> clients = new ArrayList<>();
            for (int i = 0; i < attackers; i++) {
                TestClient c = TestClient.connect(server.port());
                c.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + 16 * MIB + "\r\n\r\n");
                clients.add(c);
            }
            HttpTesting.within(10, () -> inRequest(server) == attackers, () -> inRequest(server) + " requests in");
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

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void bodiesSentInPartHoldNoMoreThanTheBudget(String loop) {
        HttpTesting.run(loop, 30, () -> {
            int budget = 4 * MIB;
            HttpServer server = start(QUIET.withBodyBufferBudget(budget));
            int attackers = 32;
            int sent = 512 * 1024; // of 16 MiB announced: 32 x 512 KiB = 16 MiB sent, four times the budget
            long before = heapAfterGc();
            List<TestClient> clients = new ArrayList<>();
            List<Task<TestClient.Received>> answers = new ArrayList<>();
            for (int i = 0; i < attackers; i++) {
                TestClient c = TestClient.connect(server.port());
                c.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + 16 * MIB + "\r\n\r\n");
                c.send(new byte[sent]);
                clients.add(c);
                answers.add(Asyncio.createTask(() -> c.response()));
            }
            BodyBudget spent = server.connections().bodyBudget();
            // every attacker either holds its part of a body, or was refused for the budget
            HttpTesting.within(10, () -> answers.stream().filter(Task::isDone).count()
                    + server.connections().list().stream().filter(c -> c.wholeBodyBytes() == sent).count() == attackers,
                    () -> answers.stream().filter(Task::isDone).count() + " refused, bodies held: "
                            + server.connections().list().stream().map(c -> c.wholeBodyBytes() + (c.isReadingPaused() ? "p" : "")).toList()
                            + ", budget used " + spent.used());
            assertTrue(spent.used() <= budget, spent.used() + " bytes held");
            long grown = heapAfterGc() - before;
            long bound = budget + attackers * 128L * 1024 + 8 * MIB; // the budget, a read's worth per connection, slack
            assertTrue(grown < bound, "the heap grew by " + grown / 1024 + " KiB, over " + bound / 1024);
            long refused = answers.stream().filter(Task::isDone).count();
            assertTrue(refused >= attackers - budget / sent, refused + " refused");
            for (Task<TestClient.Received> answer : answers) {
                if (answer.isDone()) {
                    assertEquals(503, answer.result().status(), answer.result().text());
                    assertEquals("1", answer.result().header("Retry-After"));
                }
            }
            ordinaryGetIsServed(server);
            answers.forEach(Task::cancel);
            for (TestClient c : clients) {
                c.close(); // mid-body: the server gives the bodies up
            }
            HttpTesting.within(2, () -> server.connectionCount() == 0, () -> server.connectionCount() + " connections left");
            assertEquals(0, spent.used(), "every body's bytes given back");
            // and with the budget free, a body is taken again
            TestClient client = TestClient.connect(server.port());
            client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n");
            client.send(new byte[1000000]);
            assertEquals("ok 1000000", client.response().text());
            client.close();
            server.close();
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void bodiesTrickledBelowTheFloorAreRefused(String loop) {
        HttpTesting.run(loop, 30, () -> {
            HttpServer server = start(QUIET.withMinRequestBodyRate(MinDataRate.of(1000, Duration.ofMillis(400))));
            // 20 B/s: each byte resets a no-progress timeout, not the floor
            trickleIsRefused(server, 20, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n",
                    n -> new byte[] {'b'}, 0.05, 408, 0.4);
            // a body that comes at speed is taken
            TestClient client = TestClient.connect(server.port());
            client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 300000\r\n\r\n");
            client.send(new byte[300000]);
            assertEquals("ok 300000", client.response().text());
            client.close();
            server.close();
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void headsTrickledAreRefusedAtTheirDeadline(String loop) {
        HttpTesting.run(loop, 30, () -> {
            HttpServer server = start(QUIET.withHeaderTimeout(0.4));
            trickleIsRefused(server, 20, "GET / HTTP/1.1\r\n",
                    n -> ("X-" + n + ": y\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0.05, 408, 0.4);
            server.close();
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aRequestThatKeepsComingIsRefusedAtTheWholeRequestDeadline(String loop) {
        HttpTesting.run(loop, 30, () -> {
            HttpServer server = start(QUIET.withRequestTimeout(Duration.ofMillis(500)));
            // steady, never stalled, never done
            trickleIsRefused(server, 10, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n",
                    n -> new byte[100], 0.02, 408, 0.5);
            server.close();
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void responsesReadAtATrickleAreDropped(String loop) {
        HttpTesting.run(loop, 30, () -> {
            HttpResponse big = HttpResponse.of(200, "application/octet-stream", new byte[16 * MIB]);
            double grace = 0.4;
            HttpServer server = HttpServer.start(getRunningLoop(), request -> request.path().equals("/big") ? big
                            : HttpResponse.text(200, "small"), "127.0.0.1", 0,
                    QUIET.withMinResponseRate(MinDataRate.of(4 * MIB, Duration.ofMillis(400))));
            List<TestClient> attackers = new ArrayList<>();
            List<Task<Void>> readers = new ArrayList<>();
            double began = getRunningLoop().time();
            for (int i = 0; i < 4; i++) {
                TestClient c = TestClient.connect(server.port(), 8 * 1024);
                c.socket().setOption(StandardSocketOptions.SO_RCVBUF, 16 * 1024);
                c.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
                attackers.add(c);
                readers.add(Asyncio.createTask(() -> { // 1 KiB per 10 ms: 100 KiB/s, under the floor of 4 MiB/s
                    while (c.connection.reader().read(1024).length > 0) {
                        Asyncio.sleep(0.01);
                    }
                }));
            }
            List<LogRecord> logged = new ArrayList<>();
            Logger log = Logger.getLogger("io.jasyncio.http.server");
            Handler capture = new Handler() {
                @Override
                public void publish(LogRecord record) {
                    logged.add(record);
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            };
            log.addHandler(capture);
            log.setUseParentHandlers(false);
            try {
                ordinaryGetIsServed(server);
                HttpTesting.within(grace + SLACK + 0.5, () -> server.connectionCount() == 0,
                        () -> server.connectionCount() + " trickling readers still connected");
            } finally {
                log.removeHandler(capture);
                log.setUseParentHandlers(true);
            }
            double took = getRunningLoop().time() - began;
            assertTrue(took <= grace + SLACK + 0.5, "the trickling readers were dropped after " + took + " s");
            assertEquals(attackers.size(), logged.size(), "each drop is logged once");
            for (LogRecord r : logged) {
                assertTrue(r.getMessage().contains("took response bytes too slowly"), r.getMessage());
            }
            readers.forEach(Task::cancel);
            attackers.forEach(TestClient::close);
            server.close();
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void clientsThatLeaveMidHandlerCancelIt(String loop) {
        HttpTesting.run(loop, 30, () -> {
            List<String> cancelled = new ArrayList<>();
            List<String> released = new ArrayList<>();
            List<String> started = new ArrayList<>();
            HttpServer server = HttpServer.start(getRunningLoop(), request -> {
                if (!request.path().startsWith("/forever")) {
                    return HttpResponse.text(200, "ok");
                }
                started.add(request.path());
                Future<Void> never = getRunningLoop().createFuture();
                try {
                    Asyncio.await(never);
                    return HttpResponse.text(200, "never");
                } catch (CancelledError e) {
                    cancelled.add(request.path());
                    throw e;
                } finally {
                    released.add(request.path());
                }
            }, "127.0.0.1", 0, QUIET);
            List<TestClient> clients = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                TestClient c = TestClient.connect(server.port());
                c.send("GET /forever/" + i + " HTTP/1.1\r\nHost: x\r\n\r\n");
                clients.add(c);
            }
            HttpTesting.until(() -> started.size() == 20);
            double left = getRunningLoop().time();
            for (int i = 0; i < 20; i++) {
                if (i % 2 == 1) {
                    clients.get(i).socket().setOption(StandardSocketOptions.SO_LINGER, 0); // a reset, not a FIN
                }
                clients.get(i).close();
            }
            ordinaryGetIsServed(server);
            HttpTesting.within(2, () -> released.size() == 20, () -> released.size() + " handlers ended, " + cancelled.size() + " cancelled");
            double took = getRunningLoop().time() - left;
            assertTrue(took < 1, "the handlers were cancelled " + took + " s after their clients left");
            assertEquals(20, cancelled.size(), "each with CancelledError at its await");
            HttpTesting.within(2, () -> server.connectionCount() == 0, () -> server.connectionCount() + " connections left");
            server.close();
            return null;
        });
    }
}
