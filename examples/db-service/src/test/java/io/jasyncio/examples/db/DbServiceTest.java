package io.jasyncio.examples.db;

import com.zaxxer.hikari.HikariDataSource;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.task.Runner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import static io.jasyncio.Asyncio.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example service against a real PostgreSQL (bench/tfb/postgres.sh: Debian's package, a
 * throwaway cluster on its own port), served on a jasyncio loop and asked over real HTTP. Each
 * answer is checked against what the database holds, read directly over JDBC.
 */
@Timeout(180)
class DbServiceTest {
    private static ThrowawayPostgres postgres;
    private static HikariDataSource pool;
    private static Thread loopThread;
    /** Completed to stop the service: it then shuts down gracefully (idle keep-alive connections closed at once). */
    private static final CompletableFuture<Void> stop = new CompletableFuture<>();
    private static int port;
    private static final HttpClient client = HttpClient.newHttpClient();

    /** HikariCP says INFO at every pool start and close; a passing run stays quiet (held: JUL keeps loggers weakly). */
    private static final Logger hikariLog = Logger.getLogger("com.zaxxer.hikari");

    @BeforeAll
    static void startDatabaseAndService() throws Exception {
        hikariLog.setLevel(Level.WARNING);
        postgres = ThrowawayPostgres.start();
        pool = DbService.pool(postgres.jdbcUrl(), postgres.user(), postgres.password(), 4);
        CompletableFuture<Integer> listening = new CompletableFuture<>();
        loopThread = Thread.ofPlatform().name("db-service-loop").start(() -> {
            try (Runner runner = new Runner()) {
                runner.run(() -> {
                    HttpServer server = new DbService(pool).start("127.0.0.1", 0);
                    listening.complete(server.port());
                    await(stop);
                    server.shutdown(5);
                    return null;
                });
            } catch (Throwable t) {
                listening.completeExceptionally(t);
            }
        });
        port = listening.get(60, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stopServiceAndDatabase() throws Exception {
        try {
            if (loopThread != null) {
                stop.complete(null);
                loopThread.join(TimeUnit.SECONDS.toMillis(30));
                assertFalse(loopThread.isAlive(), "the service's loop stopped");
            }
        } finally {
            if (pool != null) {
                pool.close();
            }
            if (postgres != null) {
                postgres.close();
            }
        }
    }

    @Test
    void getsAWorldAsTheDatabaseHoldsIt() throws Exception {
        int number = databaseNumber(4242);
        HttpResponse<String> r = get("/worlds/4242");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("application/json", r.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("{\"id\":4242,\"randomNumber\":" + number + "}", r.body());
    }

    @Test
    void answers404ForAMissingRowAnd400ForABadId() throws Exception {
        assertEquals(404, get("/worlds/10001").statusCode());
        assertEquals(400, get("/worlds/abc").statusCode());
    }

    @Test
    void putUpdatesTheRowInTheDatabase() throws Exception {
        int next = databaseNumber(17) % 10_000 + 1; // differs from what the row holds now
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri("/worlds/17"))
                .PUT(HttpRequest.BodyPublishers.ofString(Integer.toString(next))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("{\"id\":17,\"randomNumber\":" + next + "}", r.body());
        assertEquals(next, databaseNumber(17), "the database holds the new number");
        assertEquals(400, client.send(HttpRequest.newBuilder(uri("/worlds/17"))
                .PUT(HttpRequest.BodyPublishers.ofString("0")).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test
    void listsTheFortunesSorted() throws Exception {
        HttpResponse<String> r = get("/fortunes");
        assertEquals(200, r.statusCode(), r.body());
        List<String> expected = new ArrayList<>();
        try (Connection c = pool.getConnection();
             PreparedStatement s = c.prepareStatement("SELECT id, message FROM Fortune ORDER BY message COLLATE \"C\"");
             ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                expected.add(rs.getInt(1) + ": " + rs.getString(2) + "\n");
            }
        }
        assertEquals(12, expected.size());
        assertEquals(String.join("", expected), r.body());
        assertTrue(r.body().contains("12: フレームワークのベンチマーク\n"), "UTF-8 both ways: " + r.body());
    }

    /**
     * The valve at work: while a slow query holds one pooled connection for 2 s, the loop still
     * answers other requests (their queries run on other connections, off the loop). A query on
     * the loop itself would hold every other request behind it.
     */
    @Test
    void aSlowQueryDoesNotHoldTheLoop() throws Exception {
        CompletableFuture<HttpResponse<String>> slow = client.sendAsync(
                HttpRequest.newBuilder(uri("/report?seconds=2")).build(), HttpResponse.BodyHandlers.ofString());
        awaitQueryRunning("pg_sleep");
        for (int i = 1; i <= 20; i++) {
            assertEquals(200, get("/worlds/" + i).statusCode());
        }
        assertFalse(slow.isDone(), "the slow report is still running while 20 other requests were answered");
        HttpResponse<String> report = slow.get(30, TimeUnit.SECONDS);
        assertEquals(200, report.statusCode(), report.body());
        assertTrue(report.body().matches("\\{\"even\":\\d+,\"odd\":\\d+}"), report.body());
    }

    /** Waits until the database runs a query whose text contains {@code fragment} (bounded: 10 s). */
    private static void awaitQueryRunning(String fragment) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (Connection c = pool.getConnection();
             PreparedStatement s = c.prepareStatement(
                     "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE ? AND pid <> pg_backend_pid()")) {
            s.setString(1, "%" + fragment + "%");
            while (true) {
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) > 0) {
                        return;
                    }
                }
                assertTrue(System.nanoTime() < deadline, "the slow query never started");
                Thread.sleep(20);
            }
        }
    }

    private static int databaseNumber(int id) throws SQLException {
        try (Connection c = pool.getConnection();
             PreparedStatement s = c.prepareStatement("SELECT randomNumber FROM World WHERE id = ?")) {
            s.setInt(1, id);
            try (ResultSet rs = s.executeQuery()) {
                assertTrue(rs.next());
                return rs.getInt(1);
            }
        }
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
