import io.jasyncio.Asyncio;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.http.websocket.WebSocketClient;
import io.jasyncio.http.websocket.WebSocketConnection;
import io.jasyncio.http.websocket.WebSocketListener;
import io.jasyncio.http.websocket.WebSocketOptions;
import io.jasyncio.http.websocket.WebSocketServer;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Runner;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;

/**
 * The WebSocket benchmark's Java side (bench/ws-compare.sh, bench/ws-idle-heap.sh), run from
 * source against the built classes, on the epoll loop:
 *   echo URL CONNECTIONS SECONDS SIZE PID load: CONNECTIONS clients, each with one SIZE-byte text
 *                                         message in flight; prints "messages N seconds S cpu_ticks T"
 *                                         (T: the server PID's CPU time over the window, from /proc)
 *   broadcast URL CONNECTIONS MESSAGES PID  load: CONNECTIONS idle receivers, one publisher sending
 *                                         MESSAGES messages, each once all received the one before;
 *                                         prints "delivered N seconds S cpu_ticks T"
 *   idle URL CONNECTIONS                  opens CONNECTIONS and holds them; prints "open N"
 *   serve-broadcast PORT                  jasyncio's broadcast server: /broadcast sends each
 *                                         message to every other connection
 *   serve-idle PORT CONNECTIONS           jasyncio's echo server (defaults: keep-alive on), which
 *                                         prints the heap after a full GC once listening and once
 *                                         CONNECTIONS are open: "RESULT heap_before=B heap_after=A"
 * The clients never compress (every server is measured on the same plain frames).
 */
public class WsBench {
    private static final WebSocketOptions CLIENT = WebSocketOptions.defaults().withCompression(false).withPing(0, 0)
            .withOpenTimeout(60);

    public static void main(String[] args) throws Exception {
        try (Runner runner = new Runner(false, "epoll")) {
            runner.run(() -> {
                switch (args[0]) {
                    case "echo" -> echo(args[1], Integer.parseInt(args[2]), Double.parseDouble(args[3]), Integer.parseInt(args[4]),
                            args[5]);
                    case "broadcast" -> broadcast(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), args[4]);
                    case "idle" -> idle(args[1], Integer.parseInt(args[2]));
                    case "serve-broadcast" -> serveBroadcast(Integer.parseInt(args[1]));
                    case "serve-idle" -> serveIdle(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
                    default -> throw new IllegalArgumentException("unknown mode " + args[0]);
                }
                return null;
            });
        }
    }

    /** Opens {@code n} connections, {@code parallel} at a time. */
    private static List<WebSocketConnection> open(String url, int n, WebSocketListener listener) {
        List<WebSocketConnection> all = new ArrayList<>();
        int parallel = 200;
        for (int start = 0; start < n; start += parallel) {
            List<Future<WebSocketConnection>> batch = new ArrayList<>();
            for (int i = start; i < Math.min(n, start + parallel); i++) {
                batch.add(Asyncio.createTask(() -> WebSocketClient.connect(getRunningLoop(), url, CLIENT, listener)));
            }
            for (Future<WebSocketConnection> f : batch) {
                all.add(await(f));
            }
        }
        return all;
    }

    /** The CPU time (user + system, in clock ticks) of process {@code pid} so far. */
    private static long cpuTicks(String pid) throws java.io.IOException {
        String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", pid, "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime: fields 14 and 15
    }

    private static void echo(String url, int connections, double seconds, int size, String pid) throws java.io.IOException {
        String message = "x".repeat(size);
        long[] count = {0};
        boolean[] running = {true};
        WebSocketListener ping = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection c, String text) {
                count[0]++;
                if (running[0]) {
                    c.sendText(message);
                }
            }
        };
        List<WebSocketConnection> all = open(url, connections, ping);
        long before = count[0];
        long cpu = cpuTicks(pid);
        long start = System.nanoTime();
        for (WebSocketConnection c : all) {
            c.sendText(message);
        }
        Asyncio.sleep(seconds);
        long done = count[0] - before;
        double elapsed = (System.nanoTime() - start) / 1e9;
        cpu = cpuTicks(pid) - cpu;
        running[0] = false;
        System.out.println("messages " + done + " seconds " + elapsed + " cpu_ticks " + cpu);
        System.out.flush();
        for (WebSocketConnection c : all) {
            c.abort();
        }
    }

    /** The future of the broadcast under way: done when every receiver has it. */
    private static final class Round {
        long received;
        long target;
        Future<Void> allIn;
    }

    private static void broadcast(String url, int connections, int messages, String pid) throws java.io.IOException {
        Round round = new Round();
        WebSocketListener receiver = new WebSocketListener() {
            @Override
            public void onText(WebSocketConnection c, String text) {
                if (++round.received == round.target) {
                    round.allIn.setResult(null);
                }
            }
        };
        List<WebSocketConnection> all = open(url, connections, receiver);
        WebSocketConnection publisher = open(url, 1, new WebSocketListener() { }).getFirst();
        Asyncio.sleep(0.5); // the server registered every connection
        System.out.println("ready " + all.size());
        System.out.flush();
        long cpu = cpuTicks(pid);
        long start = System.nanoTime();
        for (int i = 0; i < messages; i++) {
            round.target += connections;
            round.allIn = getRunningLoop().createFuture();
            publisher.sendText("broadcast message number " + i);
            await(round.allIn);
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        cpu = cpuTicks(pid) - cpu;
        System.out.println("delivered " + round.received + " seconds " + elapsed + " cpu_ticks " + cpu);
        System.out.flush();
        publisher.abort();
        for (WebSocketConnection c : all) {
            c.abort();
        }
    }

    private static void idle(String url, int connections) {
        List<WebSocketConnection> all = open(url, connections, new WebSocketListener() { });
        System.out.println("open " + all.size());
        System.out.flush();
        Asyncio.sleep(3600);
    }

    private static void serveBroadcast(int port) throws Exception {
        Set<WebSocketConnection> members = new LinkedHashSet<>();
        WebSocketListener hub = new WebSocketListener() {
            @Override
            public void onOpen(WebSocketConnection c) {
                members.add(c);
            }

            @Override
            public void onText(WebSocketConnection from, String text) {
                for (WebSocketConnection c : members) {
                    if (c != from) {
                        c.sendText(text);
                    }
                }
            }

            @Override
            public void onClose(WebSocketConnection c, int code, String reason) {
                members.remove(c);
            }
        };
        WebSocketOptions options = WebSocketOptions.defaults().withPing(0, 0);
        HttpServer server = HttpServer.startStreaming(getRunningLoop(), exchange -> {
            if (WebSocketServer.isUpgrade(exchange.request())) {
                WebSocketServer.accept(exchange, options, hub);
            } else {
                exchange.respond(HttpResponse.text(404, "no"));
            }
        }, "127.0.0.1", port, HttpServerOptions.defaults());
        System.out.println("listening on 127.0.0.1:" + server.port());
        System.out.flush();
        server.serveForever();
    }

    private static void serveIdle(int port, int connections) throws Exception {
        int[] open = {0};
        WebSocketListener echo = new WebSocketListener() {
            @Override
            public void onOpen(WebSocketConnection c) {
                open[0]++;
            }

            @Override
            public void onText(WebSocketConnection c, String text) {
                c.sendText(text);
            }
        };
        WebSocketOptions options = WebSocketOptions.defaults(); // keep-alive on: a timer per connection
        HttpServer server = HttpServer.startStreaming(getRunningLoop(), exchange -> WebSocketServer.accept(exchange, options, echo),
                "127.0.0.1", port, HttpServerOptions.defaults());
        long before = heapAfterGc();
        System.out.println("listening on 127.0.0.1:" + server.port());
        System.out.flush();
        while (open[0] < connections) {
            Asyncio.sleep(0.1);
        }
        Asyncio.sleep(1);
        long after = heapAfterGc();
        System.out.println("RESULT connections=" + open[0] + " heap_before=" + before + " heap_after=" + after);
        System.out.flush();
        System.exit(0); // the idle client's connections stay open: nothing to wait for
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
