package io.jasyncio.bench;

import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.http.server.routing.Router;
import io.jasyncio.task.Runner;

import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;

/**
 * The hello-world server of bench/routing.sh, the same 13-byte response ("Hello, world!") served
 * several ways on one loop, to price routing: {@code plain} (a whole-request handler, as
 * {@code ./jasyncio http-server}), {@code streaming} (a streaming handler answering whole: a
 * router's mode without the router), {@code router1} (a router of the one route {@code GET /}) and
 * {@code router20} (a router of {@link #TWENTY_ROUTES}, asked for {@link #ROUTER20_TARGET}: two
 * path parameters, decoded into the request's copy), each router also as a whole-request handler
 * ({@code router1-whole}, {@code router20-whole}: {@code Router.wholeRequests()}).
 * Usage: {@code RoutedHttpServer --host 127.0.0.1 --port P --loop nio|epoll|io_uring --mode MODE};
 * prints {@code listening on HOST:PORT} once bound, runs until killed.
 */
public final class RoutedHttpServer {
    static final HttpResponse HELLO = HttpResponse.text(200, "Hello, world!");
    /** A service's table: literals, parameters, a rest, several methods. */
    static final List<String> TWENTY_ROUTES = List.of(
            "GET /", "GET /health", "GET /metrics",
            "GET /api/v1/users", "POST /api/v1/users", "GET /api/v1/users/{id}", "PUT /api/v1/users/{id}",
            "DELETE /api/v1/users/{id}", "GET /api/v1/users/{id}/orders", "GET /api/v1/users/{id}/orders/{order}",
            "GET /api/v1/orders", "POST /api/v1/orders", "GET /api/v1/orders/{id}",
            "GET /api/v1/products", "GET /api/v1/products/{sku}", "GET /api/v1/search",
            "GET /api/v2/items", "GET /api/v2/items/{id}", "POST /api/v2/items/{id}/tags", "GET /static/{path...}");
    /** What wrk asks the 20-route router for. */
    static final String ROUTER20_TARGET = "/api/v1/users/42/orders/7";

    private RoutedHttpServer() {
    }

    /** A router of {@code patterns}, every route answering {@link #HELLO}. */
    static Router router(List<String> patterns) {
        Router.Builder builder = Router.builder();
        for (String pattern : patterns) {
            builder.route(pattern, request -> HELLO);
        }
        return builder.build();
    }

    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 8080;
        String loop = "nio";
        String mode = "plain";
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--host" -> host = args[i + 1];
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--loop" -> loop = args[i + 1];
                case "--mode" -> mode = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        String h = host;
        int p = port;
        String m = mode;
        try (Runner runner = new Runner(false, loop)) {
            runner.run(() -> {
                HttpServerOptions options = HttpServerOptions.defaults();
                HttpServer server = switch (m) {
                    case "plain" -> HttpServer.start(getRunningLoop(), request -> HELLO, h, p, options);
                    case "streaming" -> HttpServer.startStreaming(getRunningLoop(), exchange -> exchange.respond(HELLO), h, p, options);
                    case "router1" -> HttpServer.startStreaming(getRunningLoop(), router(List.of("GET /")), h, p, options);
                    case "router20" -> HttpServer.startStreaming(getRunningLoop(), router(TWENTY_ROUTES), h, p, options);
                    case "router1-whole" -> HttpServer.start(getRunningLoop(), router(List.of("GET /")).wholeRequests(), h, p, options);
                    case "router20-whole" -> HttpServer.start(getRunningLoop(), router(TWENTY_ROUTES).wholeRequests(), h, p, options);
                    default -> throw new IllegalArgumentException("--mode plain|streaming|router1|router20|router1-whole|router20-whole, not " + m);
                };
                System.out.println("listening on " + h + ":" + server.port());
                System.out.flush();
                server.serveForever();
                return null;
            });
        }
    }
}
