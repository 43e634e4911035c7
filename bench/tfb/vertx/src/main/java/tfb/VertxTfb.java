package tfb;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.PreparedQuery;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The six TechEmpower test types on Vert.x 5 core: one event loop, its HttpServer, and one
 * vertx-pg-client connection that pipelines its queries (prepared statements cached), as Vert.x's
 * own TechEmpower entry does.
 * <pre>
 *   java -cp ... tfb.VertxTfb --port P --pg-port PORT   (database hello_world, benchmarkdbuser)
 * </pre>
 */
public final class VertxTfb extends VerticleBase {
    private static final CharSequence SERVER = HttpHeaders.createOptimized("vertx");
    private static final CharSequence TEXT = HttpHeaders.createOptimized("text/plain");
    private static final CharSequence JSON = HttpHeaders.createOptimized("application/json");
    private static final CharSequence HTML = HttpHeaders.createOptimized("text/html; charset=utf-8");
    private static final Buffer HELLO = Buffer.buffer("Hello, World!");
    private static final String SELECT_WORLD = "SELECT id, randomNumber FROM World WHERE id = $1";
    private static final String UPDATE_WORLD = "UPDATE World SET randomNumber = $1 WHERE id = $2";
    private static final String SELECT_FORTUNES = "SELECT id, message FROM Fortune";

    private final int port;
    private final int pgPort;
    private CharSequence date;
    private PreparedQuery<RowSet<Row>> selectWorld;
    private PreparedQuery<RowSet<Row>> updateWorld;
    private PreparedQuery<RowSet<Row>> selectFortunes;

    VertxTfb(int port, int pgPort) {
        this.port = port;
        this.pgPort = pgPort;
    }

    @Override
    public Future<?> start() {
        updateDate();
        vertx.setPeriodic(1000, id -> updateDate());
        PgConnectOptions db = new PgConnectOptions().setHost("127.0.0.1").setPort(pgPort).setDatabase("hello_world")
                .setUser("benchmarkdbuser").setPassword("benchmarkdbpass")
                .setCachePreparedStatements(true).setPipeliningLimit(100_000);
        return PgConnection.connect(vertx, db).compose(conn -> {
            selectWorld = conn.preparedQuery(SELECT_WORLD);
            updateWorld = conn.preparedQuery(UPDATE_WORLD);
            selectFortunes = conn.preparedQuery(SELECT_FORTUNES);
            return vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port))
                    .requestHandler(this::route).listen();
        }).onSuccess(server -> {
            System.out.println("native transport: " + vertx.isNativeTransportEnabled());
            System.out.println("listening on 127.0.0.1:" + server.actualPort());
        });
    }

    private void updateDate() {
        date = HttpHeaders.createOptimized(DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(java.time.ZoneOffset.UTC)));
    }

    private void route(HttpServerRequest request) {
        switch (request.path()) {
            case "/plaintext" -> send(request, TEXT, HELLO);
            case "/json" -> send(request, JSON, new JsonObject().put("message", "Hello, World!").toBuffer());
            case "/db" -> selectWorld.execute(Tuple.of(randomId())).onComplete(ar -> {
                if (ar.failed()) {
                    fail(request, ar.cause());
                } else {
                    send(request, JSON, world(ar.result().iterator().next()).toBuffer());
                }
            });
            case "/queries" -> queries(request);
            case "/fortunes" -> fortunes(request);
            case "/updates" -> updates(request);
            default -> request.response().setStatusCode(404).end();
        }
    }

    private void queries(HttpServerRequest request) {
        int n = count(request);
        JsonArray worlds = new JsonArray(new ArrayList<>(n));
        boolean[] failed = {false};
        for (int i = 0; i < n; i++) {
            selectWorld.execute(Tuple.of(randomId())).onComplete(ar -> {
                if (failed[0]) {
                    return;
                }
                if (ar.failed()) {
                    failed[0] = true;
                    fail(request, ar.cause());
                    return;
                }
                worlds.add(world(ar.result().iterator().next()));
                if (worlds.size() == n) {
                    send(request, JSON, worlds.toBuffer());
                }
            });
        }
    }

    private void updates(HttpServerRequest request) {
        int n = count(request);
        int[][] changed = new int[n][];
        int[] read = {0};
        boolean[] failed = {false};
        for (int i = 0; i < n; i++) {
            int index = i;
            selectWorld.execute(Tuple.of(randomId())).onComplete(ar -> {
                if (failed[0]) {
                    return;
                }
                if (ar.failed()) {
                    failed[0] = true;
                    fail(request, ar.cause());
                    return;
                }
                changed[index] = new int[] {ar.result().iterator().next().getInteger(0), randomId()};
                if (++read[0] == n) {
                    int[][] byId = changed.clone();
                    Arrays.sort(byId, Comparator.comparingInt(w -> w[0]));
                    List<Tuple> batch = new ArrayList<>(n);
                    for (int[] w : byId) {
                        batch.add(Tuple.of(w[1], w[0]));
                    }
                    updateWorld.executeBatch(batch).onComplete(done -> {
                        if (done.failed()) {
                            fail(request, done.cause());
                            return;
                        }
                        JsonArray json = new JsonArray(new ArrayList<>(n));
                        for (int[] w : changed) {
                            json.add(new JsonObject().put("id", w[0]).put("randomNumber", w[1]));
                        }
                        send(request, JSON, json.toBuffer());
                    });
                }
            });
        }
    }

    private void fortunes(HttpServerRequest request) {
        selectFortunes.execute().onComplete(ar -> {
            if (ar.failed()) {
                fail(request, ar.cause());
                return;
            }
            List<String[]> fortunes = new ArrayList<>(16);
            for (Row row : ar.result()) {
                fortunes.add(new String[] {Integer.toString(row.getInteger(0)), row.getString(1)});
            }
            fortunes.add(new String[] {"0", "Additional fortune added at request time."});
            fortunes.sort(Comparator.comparing(f -> f[1]));
            StringBuilder html = new StringBuilder(1200)
                    .append("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>");
            for (String[] f : fortunes) {
                html.append("<tr><td>").append(f[0]).append("</td><td>");
                for (int i = 0; i < f[1].length(); i++) {
                    char ch = f[1].charAt(i);
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
            html.append("</table></body></html>");
            send(request, HTML, Buffer.buffer(html.toString()));
        });
    }

    private static JsonObject world(Row row) {
        return new JsonObject().put("id", row.getInteger(0)).put("randomNumber", row.getInteger(1));
    }

    private void send(HttpServerRequest request, CharSequence contentType, Buffer body) {
        MultiMap headers = request.response().headers();
        headers.add(HttpHeaders.SERVER, SERVER).add(HttpHeaders.DATE, date).add(HttpHeaders.CONTENT_TYPE, contentType);
        request.response().end(body);
    }

    private static void fail(HttpServerRequest request, Throwable cause) {
        request.response().setStatusCode(500).end(String.valueOf(cause));
    }

    private static int count(HttpServerRequest request) {
        try {
            return Math.clamp(Integer.parseInt(request.getParam("queries")), 1, 500);
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private static int randomId() {
        return 1 + ThreadLocalRandom.current().nextInt(10_000);
    }

    public static void main(String[] args) {
        int port = 8080;
        int pgPort = 5432;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--pg-port" -> pgPort = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setPreferNativeTransport(true));
        vertx.deployVerticle(new VertxTfb(port, pgPort)).onFailure(t -> {
            t.printStackTrace();
            System.exit(1);
        });
    }
}
