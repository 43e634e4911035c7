package io.jasyncio.bench;

import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.net.Network;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.Server;
import io.jasyncio.net.Transport;
import io.jasyncio.task.Tasks;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One keep-alive GET and its 13-byte response, {@value #REQUESTS} times per op, over loopback on
 * one nio loop: a raw client protocol (one request buffer, reused; it counts response bytes) and
 * either jasyncio-http's server ({@code http}) or a raw protocol that answers every request head
 * with the same bytes ({@code raw}: the loop, the sockets and the client, without HTTP). The
 * server may also be a streaming handler answering whole ({@code streaming}) or a router
 * ({@code router1}: the one route {@code GET /}; {@code router20}: {@link RoutedHttpServer}'s 20
 * routes, asked for a route with two path parameters), or either router as a whole-request handler
 * ({@code -whole}), to price routing. Run with
 * {@code -prof gc}: the difference of the two {@code gc.alloc.rate.norm} is what the HTTP server
 * allocates per request, which does not depend on the machine's load; the times do.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH}, jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.VM_INTERNALS, JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS,
        JvmFlags.NATIVE_ACCESS})
public class HttpRequestBenchmark {
    static final int REQUESTS = 10_000;
    private static final HttpResponse HELLO = HttpResponse.text(200, "Hello, world!");

    @Param({"http", "streaming", "router1", "router20", "router1-whole", "router20-whole", "raw"})
    public String server;

    private EventLoop loop;
    private HttpServer http;
    private Server raw;
    private Client client;

    /** Starts the server and connects the client; learns the response's length from one exchange. */
    @Setup(Level.Trial)
    public void connect() {
        EventLoop l = loop = EventLoops.newEventLoop("nio"); // its own: NioLoopState's setup may run after this one
        l.runUntilComplete(Tasks.create(l, () -> {
            int port;
            if (!server.equals("raw")) {
                HttpServerOptions options = HttpServerOptions.defaults();
                http = switch (server) {
                    case "http" -> HttpServer.start(l, request -> HELLO, "127.0.0.1", 0, options);
                    case "streaming" -> HttpServer.startStreaming(l, exchange -> exchange.respond(HELLO), "127.0.0.1", 0, options);
                    case "router1" -> HttpServer.startStreaming(l, RoutedHttpServer.router(List.of("GET /")), "127.0.0.1", 0, options);
                    case "router20" -> HttpServer.startStreaming(l, RoutedHttpServer.router(RoutedHttpServer.TWENTY_ROUTES),
                            "127.0.0.1", 0, options);
                    case "router1-whole" -> HttpServer.start(l, RoutedHttpServer.router(List.of("GET /")).wholeRequests(),
                            "127.0.0.1", 0, options);
                    case "router20-whole" -> HttpServer.start(l, RoutedHttpServer.router(RoutedHttpServer.TWENTY_ROUTES).wholeRequests(),
                            "127.0.0.1", 0, options);
                    default -> throw new IllegalArgumentException(server);
                };
                port = http.port();
            } else {
                raw = Network.createServer(l, RawServer::new, "127.0.0.1", 0);
                port = ((InetSocketAddress) raw.addresses().getFirst()).getPort();
            }
            byte[] request = ("GET " + (server.startsWith("router20") ? RoutedHttpServer.ROUTER20_TARGET : "/")
                    + " HTTP/1.1\r\nHost: bench\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            client = Network.createConnection(l, () -> new Client(l, request), "127.0.0.1", port).protocol();
            return null;
        }, null, null));
        client.responseLength = RawServer.RESPONSE.length; // the same length as ours: checked next
        if (!server.equals("raw")) {
            client.responseLength = client.firstResponseLength();
        }
        if (client.responseLength != RawServer.RESPONSE.length) {
            throw new IllegalStateException("the raw server's response must be as long as the HTTP server's: "
                    + client.responseLength + " != " + RawServer.RESPONSE.length);
        }
    }

    @TearDown(Level.Trial)
    public void disconnect() {
        client.transport.close();
        if (http != null) {
            loop.runUntilComplete(Tasks.create(loop, () -> {
                http.close();
                return null;
            }, null, null));
        }
        if (raw != null) {
            raw.close();
        }
        NioLoopState.runQueued(loop);
        loop.close();
    }

    @Benchmark
    @OperationsPerInvocation(REQUESTS)
    public int keepAliveGet() {
        return loop.runUntilComplete(client.exchange(REQUESTS));
    }

    /** The client: one request at a time; the next goes out once the whole response is in. */
    static final class Client implements Protocol {
        private final EventLoop loop;
        private final ByteBuffer request;
        Transport transport;
        int responseLength;
        private int received;
        private int remaining;
        private Future<Integer> done;
        private final StringBuilder first = new StringBuilder();

        Client(EventLoop loop, byte[] request) {
            this.loop = loop;
            this.request = ByteBuffer.wrap(request);
        }

        Future<Integer> exchange(int requests) {
            done = loop.createFuture();
            remaining = requests;
            send();
            return done;
        }

        private void send() {
            transport.write(request.clear());
        }

        /** One exchange, its response read whole (till the head's end and its 13 bytes). */
        int firstResponseLength() {
            responseLength = Integer.MAX_VALUE;
            done = loop.createFuture();
            remaining = 1;
            send();
            loop.runUntilComplete(done);
            String text = first.toString();
            int headEnd = text.indexOf("\r\n\r\n") + 4;
            received = 0;
            return headEnd + 13;
        }

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            int n = data.remaining();
            if (responseLength == Integer.MAX_VALUE) { // the first response, read as text
                first.append(StandardCharsets.ISO_8859_1.decode(data));
                if (first.indexOf("\r\n\r\n") >= 0 && first.toString().endsWith("Hello, world!")) {
                    done.setResult(1);
                }
                return;
            }
            data.position(data.limit());
            received += n;
            while (received >= responseLength) {
                received -= responseLength;
                if (--remaining == 0) {
                    done.setResult(REQUESTS);
                    return;
                }
                send();
            }
        }
    }

    /** Answers each request head with a response as long as the HTTP server's (no parsing beyond the blank line). */
    static final class RawServer implements Protocol {
        static final byte[] RESPONSE = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 13\r\n"
                + "Date: Thu, 01 Jan 1970 00:00:00 GMT\r\n\r\nHello, world!").getBytes(StandardCharsets.US_ASCII);
        private final ByteBuffer response = ByteBuffer.allocateDirect(RESPONSE.length).put(RESPONSE);
        private Transport transport;
        private int matched;

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            while (data.hasRemaining()) {
                byte b = data.get();
                matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
                if (matched == 4) {
                    matched = 0;
                    transport.write(response.clear());
                }
            }
        }
    }
}
