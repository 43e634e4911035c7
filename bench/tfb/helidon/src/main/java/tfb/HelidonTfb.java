package tfb;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

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

/**
 * The six TechEmpower test types on Helidon 4 SE: its webserver runs each request on a virtual
 * thread, which runs blocking JDBC on a HikariCP pool (Helidon's own TechEmpower entry's way).
 * Pinned to one CPU, the virtual threads have one carrier.
 * <pre>
 *   java -cp ... tfb.HelidonTfb --port P --jdbc-url URL --user U --password PW [--pool N]
 * </pre>
 */
public final class HelidonTfb {
    private static final String SELECT_WORLD = "SELECT id, randomNumber FROM World WHERE id = ?";
    private static final String UPDATE_WORLD = "UPDATE World SET randomNumber = ? WHERE id = ?";
    private static final String SELECT_FORTUNES = "SELECT id, message FROM Fortune";
    private static final Header SERVER = HeaderValues.createCached(HeaderNames.SERVER, "helidon");
    private static final Header JSON = HeaderValues.CONTENT_TYPE_JSON;
    private static final Header TEXT = HeaderValues.CONTENT_TYPE_TEXT_PLAIN;
    private static final Header HTML = HeaderValues.createCached(HeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    record World(int id, int randomNumber) {
    }

    record Fortune(int id, String message) {
    }

    private final DataSource db;

    HelidonTfb(DataSource db) {
        this.db = db;
    }

    void routing(HttpRouting.Builder routes) {
        routes.get("/plaintext", (req, res) -> send(res, TEXT, HELLO))
                .get("/json", (req, res) -> send(res, JSON, ("{\"message\":\"" + "Hello, World!" + "\"}").getBytes(StandardCharsets.US_ASCII)))
                .get("/db", (req, res) -> {
                    try (Connection c = db.getConnection(); PreparedStatement select = c.prepareStatement(SELECT_WORLD)) {
                        send(res, JSON, worldJson(select(select, randomId())).getBytes(StandardCharsets.US_ASCII));
                    }
                })
                .get("/queries", (req, res) -> {
                    int n = count(req);
                    World[] worlds = new World[n];
                    try (Connection c = db.getConnection(); PreparedStatement select = c.prepareStatement(SELECT_WORLD)) {
                        for (int i = 0; i < n; i++) {
                            worlds[i] = select(select, randomId());
                        }
                    }
                    send(res, JSON, worldsJson(worlds).getBytes(StandardCharsets.US_ASCII));
                })
                .get("/updates", (req, res) -> send(res, JSON, worldsJson(updates(count(req))).getBytes(StandardCharsets.US_ASCII)))
                .get("/fortunes", (req, res) -> send(res, HTML, fortunes().getBytes(StandardCharsets.UTF_8)));
    }

    private World[] updates(int n) throws SQLException {
        try (Connection c = db.getConnection();
             PreparedStatement select = c.prepareStatement(SELECT_WORLD);
             PreparedStatement update = c.prepareStatement(UPDATE_WORLD)) {
            World[] changed = new World[n];
            for (int i = 0; i < n; i++) {
                changed[i] = new World(select(select, randomId()).id(), randomId());
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
    }

    private String fortunes() throws SQLException {
        List<Fortune> fortunes = new ArrayList<>(16);
        try (Connection c = db.getConnection();
             PreparedStatement select = c.prepareStatement(SELECT_FORTUNES);
             ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                fortunes.add(new Fortune(rs.getInt(1), rs.getString(2)));
            }
        }
        fortunes.add(new Fortune(0, "Additional fortune added at request time."));
        fortunes.sort(Comparator.comparing(Fortune::message));
        StringBuilder html = new StringBuilder(1200)
                .append("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>");
        for (Fortune f : fortunes) {
            html.append("<tr><td>").append(f.id()).append("</td><td>");
            String m = f.message();
            for (int i = 0; i < m.length(); i++) {
                char ch = m.charAt(i);
                switch (ch) {
                    case '<' -> html.append("&lt;");
                    case '>' -> html.append("&gt;");
                    case '&' -> html.append("&amp;");
                    case '"' -> html.append("&quot;");
                    case '\'' -> html.append("&#39;");
                    default -> html.append(ch);
                }
            }
            html.append("</td></tr>");
        }
        return html.append("</table></body></html>").toString();
    }

    private static void send(ServerResponse res, Header contentType, byte[] body) {
        res.header(SERVER);
        res.header(contentType);
        res.send(body);
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

    private static int count(ServerRequest req) {
        try {
            return Math.clamp(Integer.parseInt(req.query().first("queries").orElse("1")), 1, 500);
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private static int randomId() {
        return 1 + ThreadLocalRandom.current().nextInt(10_000);
    }

    public static void main(String[] args) {
        int port = 8080;
        int pool = 16;
        String url = null;
        String user = null;
        String password = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--pool" -> pool = Integer.parseInt(args[++i]);
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
        HelidonTfb app = new HelidonTfb(new HikariDataSource(config));
        WebServer server = WebServer.builder().host("127.0.0.1").port(port).routing(app::routing).build().start();
        System.out.println("listening on 127.0.0.1:" + server.port());
    }
}
