package tfb;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.task.Runner;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.toThread;

/**
 * The six TechEmpower test types on jasyncio-http, one loop: plaintext and JSON on the loop, the
 * database tests as blocking JDBC on a HikariCP pool, each request's queries in one call through
 * the valve ({@code toThread}). The Date header is the server's own (cached once a second).
 * <pre>
 *   java ... tfb.JasyncioTfb --port P --jdbc-url URL --user U --password PW [--pool N] [--loop epoll]
 * </pre>
 * Prints {@code listening on 127.0.0.1:P}.
 */
public final class JasyncioTfb {
    private static final String SELECT_WORLD = "SELECT id, randomNumber FROM World WHERE id = ?";
    private static final String UPDATE_WORLD = "UPDATE World SET randomNumber = ? WHERE id = ?";
    private static final String SELECT_FORTUNES = "SELECT id, message FROM Fortune";
    private static final HttpHeaders TEXT = HttpHeaders.of("Server", "jasyncio", "Content-Type", "text/plain");
    private static final HttpHeaders JSON = HttpHeaders.of("Server", "jasyncio", "Content-Type", "application/json");
    private static final HttpHeaders HTML = HttpHeaders.of("Server", "jasyncio", "Content-Type", "text/html; charset=utf-8");
    private static final HttpResponse PLAINTEXT = new HttpResponse(200, TEXT, "Hello, World!".getBytes(StandardCharsets.US_ASCII));
    private static final HttpResponse NOT_FOUND = new HttpResponse(404, TEXT, "not found".getBytes(StandardCharsets.US_ASCII));

    record World(int id, int randomNumber) {
    }

    record Fortune(int id, String message) {
    }

    private final DataSource db;

    JasyncioTfb(DataSource db) {
        this.db = db;
    }

    /**
     * The routing, on the path alone (every test is a GET). With the router of jasyncio-http this
     * method becomes the route table: one GET route per case, the same handler methods.
     */
    HttpResponse route(HttpRequest request) throws Exception {
        return switch (request.path()) {
            case "/plaintext" -> PLAINTEXT;
            case "/json" -> json();
            case "/db" -> db();
            case "/queries" -> queries(request);
            case "/fortunes" -> fortunes();
            case "/updates" -> updates(request);
            default -> NOT_FOUND;
        };
    }

    private static HttpResponse json() {
        return new HttpResponse(200, JSON, ("{\"message\":\"" + "Hello, World!" + "\"}").getBytes(StandardCharsets.US_ASCII));
    }

    private HttpResponse db() throws Exception {
        int id = randomId();
        World world = toThread(() -> {
            try (Connection c = db.getConnection(); PreparedStatement select = c.prepareStatement(SELECT_WORLD)) {
                return select(select, id);
            }
        });
        return new HttpResponse(200, JSON, worldJson(world).getBytes(StandardCharsets.US_ASCII));
    }

    private HttpResponse queries(HttpRequest request) throws Exception {
        int[] ids = randomIds(count(request));
        World[] worlds = toThread(() -> {
            try (Connection c = db.getConnection(); PreparedStatement select = c.prepareStatement(SELECT_WORLD)) {
                World[] found = new World[ids.length];
                for (int i = 0; i < ids.length; i++) {
                    found[i] = select(select, ids[i]);
                }
                return found;
            }
        });
        return new HttpResponse(200, JSON, worldsJson(worlds).getBytes(StandardCharsets.US_ASCII));
    }

    /** Reads each row, gives it a new random number, writes them all in one batch (sorted by id: no deadlock between requests). */
    private HttpResponse updates(HttpRequest request) throws Exception {
        int[] ids = randomIds(count(request));
        World[] worlds = toThread(() -> {
            try (Connection c = db.getConnection();
                 PreparedStatement select = c.prepareStatement(SELECT_WORLD);
                 PreparedStatement update = c.prepareStatement(UPDATE_WORLD)) {
                World[] changed = new World[ids.length];
                for (int i = 0; i < ids.length; i++) {
                    changed[i] = new World(select(select, ids[i]).id(), randomId());
                }
                World[] byId = changed.clone();
                Arrays.sort(byId, Comparator.comparingInt(World::id));
                for (World w : byId) {
                    update.setInt(1, w.randomNumber());
                    update.setInt(2, w.id());
                    update.addBatch();
                }
                update.executeBatch();
                return changed;
            }
        });
        return new HttpResponse(200, JSON, worldsJson(worlds).getBytes(StandardCharsets.US_ASCII));
    }

    private HttpResponse fortunes() throws Exception {
        List<Fortune> fortunes = toThread(() -> {
            List<Fortune> all = new ArrayList<>(16);
            try (Connection c = db.getConnection();
                 PreparedStatement select = c.prepareStatement(SELECT_FORTUNES);
                 ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    all.add(new Fortune(rs.getInt(1), rs.getString(2)));
                }
            }
            return all;
        });
        fortunes.add(new Fortune(0, "Additional fortune added at request time."));
        fortunes.sort(Comparator.comparing(Fortune::message));
        StringBuilder html = new StringBuilder(1200)
                .append("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>");
        for (Fortune f : fortunes) {
            html.append("<tr><td>").append(f.id()).append("</td><td>");
            escapeHtml(f.message(), html);
            html.append("</td></tr>");
        }
        html.append("</table></body></html>");
        return new HttpResponse(200, HTML, html.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static World select(PreparedStatement select, int id) throws SQLException {
        select.setInt(1, id);
        try (ResultSet rs = select.executeQuery()) {
            rs.next();
            return new World(rs.getInt(1), rs.getInt(2));
        }
    }

    private static String worldJson(World w) {
        return "{\"id\":" + w.id() + ",\"randomNumber\":" + w.randomNumber() + "}";
    }

    private static String worldsJson(World[] worlds) {
        StringBuilder json = new StringBuilder(worlds.length * 32).append('[');
        for (int i = 0; i < worlds.length; i++) {
            json.append(i == 0 ? "" : ",").append(worldJson(worlds[i]));
        }
        return json.append(']').toString();
    }

    private static void escapeHtml(String s, StringBuilder out) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(ch);
            }
        }
    }

    /** The queries parameter, clamped to 1..500; 1 when absent or not a number (the tests' rule). */
    private static int count(HttpRequest request) {
        String query = request.query();
        if (query != null) {
            for (String pair : query.split("&")) {
                if (pair.startsWith("queries=")) {
                    try {
                        return Math.clamp(Integer.parseInt(pair.substring("queries=".length())), 1, 500);
                    } catch (NumberFormatException e) {
                        return 1;
                    }
                }
            }
        }
        return 1;
    }

    private static int randomId() {
        return 1 + ThreadLocalRandom.current().nextInt(10_000);
    }

    private static int[] randomIds(int n) {
        int[] ids = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = randomId();
        }
        return ids;
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
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(pool);
        config.setMinimumIdle(pool);
        int listenPort = port;
        try (HikariDataSource db = new HikariDataSource(config); Runner runner = new Runner(false, loop)) {
            JasyncioTfb app = new JasyncioTfb(db);
            runner.run(() -> {
                HttpServer server = HttpServer.start(getRunningLoop(), app::route, "127.0.0.1", listenPort, HttpServerOptions.defaults());
                System.out.println("listening on 127.0.0.1:" + server.port());
                System.out.flush();
                server.serveForever();
                return null;
            });
        }
    }
}
