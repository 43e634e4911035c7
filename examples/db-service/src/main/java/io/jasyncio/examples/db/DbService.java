package io.jasyncio.examples.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.task.Runner;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.toThread;

/**
 * A small service on jasyncio-http with a real PostgreSQL behind it (the TechEmpower schema:
 * bench/tfb/postgres.sh makes one). The queries are blocking JDBC on a HikariCP pool, and every
 * one leaves the loop through the valve, {@code toThread}: the loop keeps serving while a query
 * waits for the database.
 * <pre>
 *   GET /worlds/ID           the row, as {"id":ID,"randomNumber":N}; 404 when there is none
 *   PUT /worlds/ID           body N (1..10000): sets the row's randomNumber, answers the row
 *   GET /fortunes            every fortune, sorted by message: one "ID: MESSAGE" line each (UTF-8 text)
 *   GET /report?seconds=S    a slow query (S seconds of server-side pg_sleep, 0..5): counts by parity
 * </pre>
 * Run it against a throwaway database (from the repository root, after {@code ./jasyncio build}):
 * <pre>
 *   bench/tfb/postgres.sh run -- java -cp "examples/db-service/target/classes:$(cat examples/db-service/target/classpath)" \
 *       io.jasyncio.examples.db.DbService --port 8080
 * </pre>
 * The connection comes from the environment: JDBC_URL, PGUSER, PGPASSWORD.
 */
public final class DbService {
    private final WorldRepository worlds;

    public DbService(DataSource pool) {
        this.worlds = new WorldRepository(pool);
    }

    /** A HikariCP pool of {@code size} connections to {@code jdbcUrl}. */
    public static HikariDataSource pool(String jdbcUrl, String user, String password, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(size);
        config.setPoolName("db-service");
        return new HikariDataSource(config);
    }

    /** Coroutine: serves on the running loop until the task running it is cancelled. */
    public HttpServer start(String host, int port) throws Exception {
        return HttpServer.start(getRunningLoop(), this::handle, host, port, HttpServerOptions.defaults());
    }

    /** Coroutine: the whole service, one route per branch. */
    HttpResponse handle(HttpRequest request) throws Exception {
        String path = request.path();
        String method = request.method();
        if (path.startsWith("/worlds/")) {
            Integer id = parseInt(path.substring("/worlds/".length()));
            if (id == null) {
                return HttpResponse.text(400, "the id must be a number\n");
            }
            return switch (method) {
                case "GET" -> world(toThread(() -> worlds.find(id)));
                case "PUT" -> {
                    Integer number = parseInt(request.bodyText().strip());
                    if (number == null || number < 1 || number > 10_000) {
                        yield HttpResponse.text(400, "the body must be a number in 1..10000\n");
                    }
                    yield world(toThread(() -> worlds.update(id, number)));
                }
                default -> HttpResponse.text(405, "GET or PUT\n");
            };
        }
        if (!method.equals("GET")) {
            return HttpResponse.text(405, "GET only\n");
        }
        return switch (path) {
            case "/fortunes" -> HttpResponse.text(200, toThread(worlds::fortunes).stream()
                    .map(f -> f.id() + ": " + f.message() + "\n")
                    .collect(Collectors.joining()));
            case "/report" -> {
                double seconds = Math.clamp(parseDouble(queryParameter(request, "seconds"), 1), 0, 5);
                long[] parity = toThread(() -> worlds.parityReport(seconds));
                yield json("{\"even\":" + parity[0] + ",\"odd\":" + parity[1] + "}");
            }
            default -> HttpResponse.text(404, "no such route\n");
        };
    }

    private static HttpResponse world(Optional<WorldRepository.World> row) {
        return row.map(w -> json("{\"id\":" + w.id() + ",\"randomNumber\":" + w.randomNumber() + "}"))
                .orElseGet(() -> HttpResponse.text(404, "no such world\n"));
    }

    private static HttpResponse json(String body) {
        return HttpResponse.of(200, "application/json", body.getBytes(StandardCharsets.UTF_8));
    }

    private static Integer parseInt(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static double parseDouble(String s, double otherwise) {
        try {
            return s == null ? otherwise : Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static String queryParameter(HttpRequest request, String name) {
        String query = request.query();
        if (query == null) {
            return null;
        }
        for (String pair : List.of(query.split("&"))) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                return pair.substring(eq + 1);
            }
        }
        return null;
    }

    /** {@code DbService [--host H] [--port P] [--pool N]}: serves until killed; prints "listening on H:P". */
    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 8080;
        int poolSize = 10;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--host" -> host = args[++i];
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--pool" -> poolSize = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        String url = System.getenv("JDBC_URL");
        if (url == null) {
            throw new IllegalStateException("set JDBC_URL (and PGUSER, PGPASSWORD): bench/tfb/postgres.sh run -- ... sets them");
        }
        String listenHost = host;
        int listenPort = port;
        try (HikariDataSource pool = pool(url, System.getenv("PGUSER"), System.getenv("PGPASSWORD"), poolSize);
             Runner runner = new Runner()) {
            runner.run(() -> {
                HttpServer server = new DbService(pool).start(listenHost, listenPort);
                System.out.println("listening on " + listenHost + ":" + server.port());
                System.out.flush();
                server.serveForever();
                return null;
            });
        }
    }
}
