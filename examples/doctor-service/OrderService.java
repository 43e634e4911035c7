import static io.jasyncio.Asyncio.*;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.TimerHandle;
import io.jasyncio.net.Server;
import io.jasyncio.net.StreamConnection;
import io.jasyncio.net.StreamReader;
import io.jasyncio.net.StreamWriter;
import io.jasyncio.task.Task;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A small order service on one jasyncio loop, with its own load, for the doctor to examine.
 * Each fault is off unless its flag is given:
 *
 * <pre>
 *   --block          GET /report renders with a blocking call (300 ms Thread.sleep) on the loop
 *   --starve         a cache refresh awaits only done futures for 250 ms: it never yields
 *   --timeouts       every request arms 30 s deadline timers (its own, its backend call's) and
 *                    cancels them when answered
 *   --lost-errors    every 20th order starts an audit task that fails and nobody awaits
 *   --seconds S      how long the load runs (default 3)
 *   --min-requests N and at least until N requests were answered (default 0)
 * </pre>
 *
 * Run it under the doctor (from the repository root, after a build):
 * <pre>
 *   ./jasyncio doctor -- java --add-exports java.base/jdk.internal.vm=ALL-UNNAMED \
 *       -cp jasyncio-core/target/classes examples/doctor-service/OrderService.java --block --timeouts
 * </pre>
 */
public class OrderService {
    static boolean block;
    static boolean starve;
    static boolean timeouts;
    static boolean lostErrors;
    static double seconds = 3;
    static int minRequests;
    static int totalAnswered;

    static final Map<String, Future<Integer>> priceCache = new HashMap<>();
    static int orders;

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--block" -> block = true;
                case "--starve" -> starve = true;
                case "--timeouts" -> timeouts = true;
                case "--lost-errors" -> lostErrors = true;
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--min-requests" -> minRequests = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        int answered = run(OrderService::serveWithLoad);
        System.out.println("order service: " + answered + " requests answered");
    }

    /** The service, and clients that load it for {@link #seconds}. */
    static int serveWithLoad() throws Exception {
        Server server = startServer(OrderService::handle, "127.0.0.1", 0);
        int port = ((InetSocketAddress) server.addresses().getFirst()).getPort();
        double until = getRunningLoop().time() + seconds;
        List<Task<Integer>> clients = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            clients.add(createTask(() -> client(port, "/order", 0.002, until), "client-" + c));
        }
        clients.add(createTask(() -> client(port, "/report", 0.7, until), "reports"));
        Task<Void> refresher = createTask(() -> refreshCacheForever(until), "cache-refresh");
        int answered = 0;
        for (Task<Integer> client : clients) {
            answered += await(client);
        }
        await(refresher);
        server.close();
        server.waitClosed();
        return answered;
    }

    /** One connection's requests, one at a time, {@code pause} seconds apart. */
    static int client(int port, String path, double pause, double until) throws Exception {
        StreamConnection c = openConnection("127.0.0.1", port);
        int answered = 0;
        while (getRunningLoop().time() < until || totalAnswered < minRequests) {
            c.writer().write(("GET " + path + "\n").getBytes(StandardCharsets.US_ASCII));
            c.writer().drain();
            if (c.reader().readline().length == 0) {
                break;
            }
            answered++;
            totalAnswered++;
            sleep(pause);
        }
        c.writer().close();
        c.writer().waitClosed();
        return answered;
    }

    /** The server side of one connection: a line in, a line out. */
    static void handle(StreamReader reader, StreamWriter writer) throws Exception {
        EventLoop loop = getRunningLoop();
        byte[] line;
        while ((line = reader.readline()).length > 0) {
            String request = new String(line, StandardCharsets.US_ASCII).trim();
            TimerHandle deadline = timeouts ? loop.callLater(30, writer::close) : null;
            TimerHandle backendDeadline = timeouts ? loop.callLater(30, writer::close) : null;
            String reply = request.endsWith("/report") ? report() : order();
            writer.write((reply + "\n").getBytes(StandardCharsets.US_ASCII));
            writer.drain();
            if (deadline != null) {
                backendDeadline.cancel(); // answered: both 30 s deadlines stay in the heap, cancelled
                deadline.cancel();
            }
        }
        writer.close();
    }

    static String order() {
        orders++;
        if (lostErrors && orders % 20 == 0) {
            createTask(OrderService::audit, "audit-" + orders); // fire and forget: its failure is lost
        }
        return "order " + orders + " accepted";
    }

    static Void audit() {
        throw new IllegalStateException("audit backend refused order " + orders);
    }

    static String report() throws Exception {
        if (block) {
            return renderReportBlocking();
        }
        return toThread(OrderService::renderReportBlocking); // the cure: off the loop
    }

    static String renderReportBlocking() throws InterruptedException {
        Thread.sleep(300); // stands in for a blocking database query
        return "report of " + orders + " orders";
    }

    /** Refreshes the price cache every 0.7 s; with --starve each refresh awaits cached futures only. */
    static Void refreshCacheForever(double until) {
        EventLoop loop = getRunningLoop();
        while (loop.time() < until || totalAnswered < minRequests) {
            sleep(0.7);
            if (!starve) {
                continue;
            }
            double refreshUntil = loop.time() + 0.25;
            long hits = 0;
            while (loop.time() < refreshUntil) { // every await is a cache hit: none of them yields
                hits += await(cachedPrice("sku-" + (hits % 64)));
            }
        }
        return null;
    }

    static Future<Integer> cachedPrice(String sku) {
        return priceCache.computeIfAbsent(sku, k -> {
            Future<Integer> f = getRunningLoop().createFuture();
            f.setResult(1);
            return f;
        });
    }
}
