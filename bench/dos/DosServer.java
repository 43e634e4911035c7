import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.task.Runner;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.atomic.AtomicReference;

import static io.jasyncio.Asyncio.getRunningLoop;

/**
 * The server side of bench/http-dos.sh: jasyncio-http on one loop answering "Hello, world!" to
 * every request, driven over stdin by the attacking script: "heap" answers the heap in use after a
 * full GC and the connections open ("heap BYTES connections N"), "quit" ends it.
 *
 *   java -cp CLASSES DosServer.java [--loop nio|epoll|io_uring] [--no-floors]
 *
 * --no-floors turns the rate floors off, so the attacking connections stay for as long as the
 * measurement takes (with the defaults they are refused after 5 s: 240 B/s is the floor).
 */
public final class DosServer {
    public static void main(String[] args) throws Exception {
        String loop = "nio";
        boolean floors = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--loop" -> loop = args[++i];
                case "--no-floors" -> floors = false;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        HttpServerOptions options = HttpServerOptions.defaults()
                .withServerOptions(ServerOptions.defaults().withBacklog(4096));
        if (!floors) {
            options = options.withMinRequestBodyRate(null).withMinResponseRate(null);
        }
        HttpServerOptions chosen = options;
        HttpResponse hello = HttpResponse.text(200, "Hello, world!");
        AtomicReference<HttpServer> started = new AtomicReference<>();
        String loopName = loop;
        Thread serving = Thread.ofPlatform().name("server").start(() -> {
            try (Runner runner = new Runner(false, loopName)) {
                runner.run(() -> {
                    HttpServer server;
                    try {
                        server = HttpServer.start(getRunningLoop(), request -> hello, "127.0.0.1", 0, chosen);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    started.set(server);
                    System.out.println("listening on " + server.port());
                    System.out.flush();
                    server.serveForever();
                    return null;
                });
            }
        });
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line = in.readLine(); line != null && !line.equals("quit"); line = in.readLine()) {
            if (line.equals("heap")) {
                memory.gc();
                long used = memory.getHeapMemoryUsage().getUsed();
                HttpServer server = started.get();
                // connectionCount is read off the loop's thread: a figure for a report, not for logic
                System.out.println("heap " + used + " connections " + (server == null ? 0 : server.connectionCount()));
                System.out.flush();
            }
        }
        System.exit(0);
    }
}
