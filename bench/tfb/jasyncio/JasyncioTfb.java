package tfb;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.http.server.routing.Router;
import io.jasyncio.task.Runner;

import com.zaxxer.hikari.HikariDataSource;

import java.nio.charset.StandardCharsets;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.toThread;

/**
 * The six TechEmpower test types on jasyncio-http, one loop: plaintext and JSON on the loop, the
 * database tests as blocking JDBC (bench/tfb/jdbc, HikariCP), each request's queries in one call
 * through the valve ({@code toThread}). The Date header is the server's own (cached once a second).
 * <pre>
 *   java ... tfb.JasyncioTfb --port P --jdbc-url URL --user U --password PW [--pool N] [--loop epoll]
 * </pre>
 * Prints {@code listening on 127.0.0.1:P}.
 */
public final class JasyncioTfb {
    private static final HttpHeaders TEXT = HttpHeaders.of("Server", "jasyncio", "Content-Type", "text/plain");
    private static final HttpHeaders JSON = HttpHeaders.of("Server", "jasyncio", "Content-Type", "application/json");
    private static final HttpHeaders HTML = HttpHeaders.of("Server", "jasyncio", "Content-Type", "text/html; charset=utf-8");
    private static final HttpResponse PLAINTEXT = new HttpResponse(200, TEXT, TfbRules.HELLO.getBytes(StandardCharsets.US_ASCII));

    private final JdbcWorlds worlds;

    JasyncioTfb(JdbcWorlds worlds) {
        this.worlds = worlds;
    }

    /** The route table: every test is a GET; the router answers 404 and 405 for the rest. */
    Router router() {
        return Router.builder()
                .get("/plaintext", request -> PLAINTEXT)
                .get("/json", request -> json("{\"message\":\"" + TfbRules.HELLO + "\"}"))
                .get("/db", request -> json(TfbRules.json(toThread(() -> worlds.random(1))[0])))
                .get("/queries", request -> {
                    int n = TfbRules.queries(request.queryParameter("queries"));
                    return json(TfbRules.json(toThread(() -> worlds.random(n))));
                })
                .get("/updates", request -> {
                    int n = TfbRules.queries(request.queryParameter("queries"));
                    return json(TfbRules.json(toThread(() -> worlds.update(n))));
                })
                .get("/fortunes", request -> new HttpResponse(200, HTML,
                        TfbRules.fortunesPage(toThread(worlds::fortunes)).getBytes(StandardCharsets.UTF_8)))
                .build();
    }

    private static HttpResponse json(String body) {
        return new HttpResponse(200, JSON, body.getBytes(StandardCharsets.US_ASCII));
    }

    public static void main(String[] args) throws Exception {
        int port = 8080;
        int pool = 16;
        String loop = "epoll";
        String url = null;
        String user = null;
        String password = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--pool" -> pool = Integer.parseInt(args[++i]);
                case "--loop" -> loop = args[++i];
                case "--jdbc-url" -> url = args[++i];
                case "--user" -> user = args[++i];
                case "--password" -> password = args[++i];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        int listenPort = port;
        try (HikariDataSource db = JdbcWorlds.pool(url, user, password, pool); Runner runner = new Runner(false, loop)) {
            JasyncioTfb app = new JasyncioTfb(new JdbcWorlds(db));
            runner.run(() -> {
                HttpServer server = HttpServer.start(getRunningLoop(), app.router().wholeRequests(), "127.0.0.1", listenPort, HttpServerOptions.defaults());
                System.out.println("listening on 127.0.0.1:" + server.port());
                System.out.flush();
                server.serveForever();
                return null;
            });
        }
    }
}
