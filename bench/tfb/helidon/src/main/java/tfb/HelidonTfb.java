package tfb;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.nio.charset.StandardCharsets;

/**
 * The six TechEmpower test types on Helidon 4 SE: its webserver runs each request on a virtual
 * thread, which runs blocking JDBC (bench/tfb/jdbc, HikariCP), as Helidon's own TechEmpower entry
 * does. Pinned to one CPU, the virtual threads have one carrier.
 * <pre>
 *   java -cp ... tfb.HelidonTfb --port P --jdbc-url URL --user U --password PW [--pool N]
 * </pre>
 */
public final class HelidonTfb {
    private static final Header SERVER = HeaderValues.createCached(HeaderNames.SERVER, "helidon");
    private static final Header HTML = HeaderValues.createCached(HeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
    private static final byte[] HELLO = TfbRules.HELLO.getBytes(StandardCharsets.US_ASCII);

    private final JdbcWorlds worlds;

    HelidonTfb(JdbcWorlds worlds) {
        this.worlds = worlds;
    }

    void routing(HttpRouting.Builder routes) {
        routes.get("/plaintext", (req, res) -> send(res, HeaderValues.CONTENT_TYPE_TEXT_PLAIN, HELLO))
                .get("/json", (req, res) -> json(res, "{\"message\":\"" + TfbRules.HELLO + "\"}"))
                .get("/db", (req, res) -> json(res, TfbRules.json(worlds.random(1)[0])))
                .get("/queries", (req, res) -> json(res, TfbRules.json(worlds.random(queries(req)))))
                .get("/updates", (req, res) -> json(res, TfbRules.json(worlds.update(queries(req)))))
                .get("/fortunes", (req, res) -> send(res, HTML, TfbRules.fortunesPage(worlds.fortunes()).getBytes(StandardCharsets.UTF_8)));
    }

    private static int queries(ServerRequest req) {
        return TfbRules.queries(req.query().first("queries").orElse(null));
    }

    private static void json(ServerResponse res, String body) {
        send(res, HeaderValues.CONTENT_TYPE_JSON, body.getBytes(StandardCharsets.US_ASCII));
    }

    private static void send(ServerResponse res, Header contentType, byte[] body) {
        res.header(SERVER);
        res.header(contentType);
        res.send(body);
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
        HelidonTfb app = new HelidonTfb(new JdbcWorlds(JdbcWorlds.pool(url, user, password, pool)));
        WebServer server = WebServer.builder().host("127.0.0.1").port(port).routing(app::routing).build().start();
        System.out.println("listening on 127.0.0.1:" + server.port());
    }
}
