package io.jasyncio.lab;

import io.jasyncio.group.EventLoopGroup;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpGroupServer;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.http.server.StreamingHandler;
import io.jasyncio.http.websocket.WebSocketConnection;
import io.jasyncio.http.websocket.WebSocketListener;
import io.jasyncio.http.websocket.WebSocketOptions;
import io.jasyncio.http.websocket.WebSocketServer;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.task.Runner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;

import static io.jasyncio.Asyncio.getRunningLoop;

/**
 * {@code ./jasyncio http-server}: jasyncio-http answering every request with one response until
 * killed, for load tests and benchmarks (bench/compare-http.sh): "Hello, world!" (13 bytes) or
 * {@code --size N} bytes, on one loop or ({@code --loops N}) on an {@link EventLoopGroup}; and a
 * WebSocket echo at {@code /ws} (every message sent back as it came, text or binary), for
 * WebSocket load tools and interop checks (bench/ws-compare.sh). Prints
 * {@code listening on HOST:PORT} once it accepts.
 */
@Command(name = "http-server", mixinStandardHelpOptions = true,
        description = "Serve one HTTP response to every request until killed (for load tests and benchmarks).")
final class HttpServerCommand implements Callable<Integer> {
    static final String HELLO = "Hello, world!";

    @CommandLine.Mixin
    ServeOptions serve;

    @Option(names = "--port", defaultValue = "8080", description = "port; 0 picks a free one (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--size", defaultValue = "-1",
            description = "body size in bytes; -1 answers \"" + HELLO + "\" (13 bytes) (default: ${DEFAULT-VALUE})")
    int size;

    @Override
    public Integer call() throws Exception {
        serve.check(this);
        if (size < -1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--size must be -1 or more, not " + size);
        }
        HttpResponse response = response(size); // one response for every request: its head is encoded once
        HttpServerOptions options = HttpServerOptions.defaults()
                .withServerOptions(ServerOptions.defaults().withBacklog(serve.backlog));
        if (serve.loops > 1) {
            return serveOnGroup(response, options);
        }
        try (Runner runner = new Runner(false, serve.loop)) {
            runner.run(() -> {
                HttpServer server = HttpServer.startStreaming(getRunningLoop(), handler(response), serve.host, port, options);
                System.out.println("listening on " + serve.host + ":" + server.port());
                System.out.flush();
                server.serveForever();
                return null;
            });
        }
        return 0;
    }

    /** --loops N: an EventLoopGroup of N loops serving one port until killed. */
    private int serveOnGroup(HttpResponse response, HttpServerOptions options) {
        try (EventLoopGroup group = new EventLoopGroup(serve.loops, serve.loop)) {
            HttpGroupServer server = HttpGroupServer.startStreaming(group, handler(response), serve.host, port, options, serve.spread).join();
            System.out.println(serve.loops + " loops (" + serve.loop + "), connections spread by " + server.mode());
            System.out.println("listening on " + serve.host + ":" + server.port());
            System.out.flush();
            group.terminationFuture().join();
        }
        return 0;
    }

    /** {@code /ws} with {@code Upgrade: websocket}: the echo; every other request: {@code response}. */
    static StreamingHandler handler(HttpResponse response) {
        return exchange -> {
            if (exchange.request().path().equals("/ws") && WebSocketServer.isUpgrade(exchange.request())) {
                WebSocketServer.accept(exchange, WS_OPTIONS, ECHO);
            } else {
                exchange.respond(response);
            }
        };
    }

    /** Keep-alive off: load tools' idle connections cost no timers. */
    private static final WebSocketOptions WS_OPTIONS = WebSocketOptions.defaults().withPing(0, 0);

    /** The echo, in the callback form: one listener for every connection, no task, no queue. */
    private static final WebSocketListener ECHO = new WebSocketListener() {
        @Override
        public void onText(WebSocketConnection connection, String text) {
            connection.sendText(text);
        }

        @Override
        public void onBinary(WebSocketConnection connection, byte[] data) {
            connection.sendBinary(data);
        }
    };

    static HttpResponse response(int size) {
        byte[] body;
        if (size < 0) {
            body = HELLO.getBytes(StandardCharsets.US_ASCII);
        } else {
            body = new byte[size];
            Arrays.fill(body, (byte) 'x');
        }
        return HttpResponse.of(200, "text/plain", body);
    }
}
