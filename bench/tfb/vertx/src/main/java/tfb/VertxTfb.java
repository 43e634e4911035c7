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
import java.util.function.Consumer;

/**
 * The six TechEmpower test types on Vert.x 5 core: one event loop, its HttpServer, and one
 * vertx-pg-client connection that pipelines its queries (prepared statements cached), as Vert.x's
 * own TechEmpower entry does; {@code --pg-connections N} opens N and spreads the requests over them.
 * <pre>
 *   java -cp ... tfb.VertxTfb --port P --pg-port PORT [--pg-connections N]   (database hello_world, benchmarkdbuser)
 * </pre>
 */
public final class VertxTfb extends VerticleBase {
    private static final CharSequence SERVER = HttpHeaders.createOptimized("vertx");
    private static final CharSequence TEXT = HttpHeaders.createOptimized("text/plain");
    private static final CharSequence JSON = HttpHeaders.createOptimized("application/json");
    private static final CharSequence HTML = HttpHeaders.createOptimized("text/html; charset=utf-8");
    private static final Buffer HELLO = Buffer.buffer(TfbRules.HELLO);
    private static final String SELECT_WORLD = "SELECT id, randomNumber FROM World WHERE id = $1";
    private static final String UPDATE_WORLD = "UPDATE World SET randomNumber = $1 WHERE id = $2";
    private static final String SELECT_FORTUNES = "SELECT id, message FROM Fortune";

    private final int port;
    private final int pgPort;
    private final Statements[] connections;
    private int nextConnection;
    private CharSequence date;

    /** One pipelined connection's prepared statements. */
    private record Statements(PreparedQuery<RowSet<Row>> selectWorld, PreparedQuery<RowSet<Row>> updateWorld,
                              PreparedQuery<RowSet<Row>> selectFortunes) {
        static Statements of(PgConnection conn) {
            return new Statements(conn.preparedQuery(SELECT_WORLD), conn.preparedQuery(UPDATE_WORLD), conn.preparedQuery(SELECT_FORTUNES));
        }
    }

    VertxTfb(int port, int pgPort, int pgConnections) {
        this.port = port;
        this.pgPort = pgPort;
        this.connections = new Statements[pgConnections];
    }

    /** The connection for the next request: round robin (a request's queries all go down one). */
    private Statements db() {
        Statements s = connections[nextConnection];
        nextConnection = (nextConnection + 1) % connections.length;
        return s;
    }

    @Override
    public Future<?> start() {
        updateDate();
        vertx.setPeriodic(1000, id -> updateDate());
        PgConnectOptions db = new PgConnectOptions().setHost("127.0.0.1").setPort(pgPort).setDatabase("hello_world")
                .setUser("benchmarkdbuser").setPassword("benchmarkdbpass")
                .setCachePreparedStatements(true).setPipeliningLimit(100_000);
        List<Future<PgConnection>> opened = new ArrayList<>();
        for (int i = 0; i < connections.length; i++) {
            opened.add(PgConnection.connect(vertx, db));
        }
        return Future.all(opened).compose(all -> {
            for (int i = 0; i < connections.length; i++) {
                connections[i] = Statements.of(all.resultAt(i));
            }
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
            case "/json" -> send(request, JSON, new JsonObject().put("message", TfbRules.HELLO).toBuffer());
            case "/db" -> randomWorlds(request, db(), 1, rows -> send(request, JSON, json(rows[0]).toBuffer()));
            case "/queries" -> queries(request);
            case "/fortunes" -> fortunes(request);
            case "/updates" -> updates(request);
            default -> request.response().setStatusCode(404).end();
        }
    }

    private void queries(HttpServerRequest request) {
        randomWorlds(request, db(), count(request), rows -> send(request, JSON, json(rows).toBuffer()));
    }

    private void updates(HttpServerRequest request) {
        Statements db = db();
        randomWorlds(request, db, count(request), rows -> {
            for (int[] w : rows) {
                w[1] = TfbRules.randomId();
            }
            int[][] byId = rows.clone();
            Arrays.sort(byId, Comparator.comparingInt(w -> w[0])); // no deadlock between requests
            List<Tuple> batch = new ArrayList<>(byId.length);
            for (int[] w : byId) {
                batch.add(Tuple.of(w[1], w[0]));
            }
            db.updateWorld().executeBatch(batch).onComplete(done -> {
                if (done.failed()) {
                    fail(request, done.cause());
                } else {
                    send(request, JSON, json(rows).toBuffer());
                }
            });
        });
    }

    /** Sends {@code n} random-row queries down the pipelined connection; then {@code then} gets the rows ({id, randomNumber}, in order), or the request a 500. */
    private void randomWorlds(HttpServerRequest request, Statements db, int n, Consumer<int[][]> then) {
        int[][] rows = new int[n][];
        int[] received = {0};
        boolean[] failed = {false};
        for (int i = 0; i < n; i++) {
            int index = i;
            db.selectWorld().execute(Tuple.of(TfbRules.randomId())).onComplete(ar -> {
                if (failed[0]) {
                    return;
                }
                if (ar.failed()) {
                    failed[0] = true;
                    fail(request, ar.cause());
                    return;
                }
                Row row = ar.result().iterator().next();
                rows[index] = new int[] {row.getInteger(0), row.getInteger(1)};
                if (++received[0] == n) {
                    then.accept(rows);
                }
            });
        }
    }

    private void fortunes(HttpServerRequest request) {
        db().selectFortunes().execute().onComplete(ar -> {
            if (ar.failed()) {
                fail(request, ar.cause());
                return;
            }
            List<TfbRules.Fortune> fortunes = new ArrayList<>(16);
            for (Row row : ar.result()) {
                fortunes.add(new TfbRules.Fortune(row.getInteger(0), row.getString(1)));
            }
            send(request, HTML, Buffer.buffer(TfbRules.fortunesPage(fortunes)));
        });
    }

    private static JsonObject json(int[] world) {
        return new JsonObject().put("id", world[0]).put("randomNumber", world[1]);
    }

    private static JsonArray json(int[][] worlds) {
        JsonArray array = new JsonArray(new ArrayList<>(worlds.length));
        for (int[] w : worlds) {
            array.add(json(w));
        }
        return array;
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
        return TfbRules.queries(request.getParam("queries"));
    }

    public static void main(String[] args) {
        int port = 8080;
        int pgPort = 5432;
        int pgConnections = 1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--pg-port" -> pgPort = Integer.parseInt(args[++i]);
                case "--pg-connections" -> pgConnections = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setPreferNativeTransport(true));
        vertx.deployVerticle(new VertxTfb(port, pgPort, pgConnections)).onFailure(t -> {
            t.printStackTrace();
            System.exit(1);
        });
    }
}
