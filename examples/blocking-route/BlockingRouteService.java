import static io.jasyncio.Asyncio.*;

import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.client.HttpClient;
import io.jasyncio.http.client.HttpClientOptions;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.List;

/**
 * The service of issue 38, as a new user builds it from the README: a jasyncio-http server whose
 * route {@code GET /order} makes one blocking call (a {@code Thread.sleep}, standing in for a JDBC
 * query) through {@code toThread}, as the README says, and one call to an upstream service through
 * the pooled {@link HttpClient}. The upstream is a second jasyncio-http server on the same loop.
 *
 * <pre>
 *   --port P          serve on P (0: any) until killed, printing "listening on 127.0.0.1:P" (for wrk)
 *   --load S          instead, load it itself for S seconds through an HttpClient, then exit
 *   --clients N       concurrent requests of that load (default 50)
 *   --min-requests N  and at least until N requests were answered (default 0)
 *   --blocking-ms MS  how long the blocking call takes (default 50)
 * </pre>
 *
 * The default executor is a virtual thread per call; {@code -Djasyncio.executor=platform} gives
 * asyncio's sized pool (min(32, cpus + 4) threads) to compare. Run it under the doctor (after a
 * build, from the repository root):
 * <pre>
 *   ./jasyncio doctor -- java --add-exports java.base/jdk.internal.vm=ALL-UNNAMED \
 *       -cp jasyncio-core/target/classes:jasyncio-http/target/classes \
 *       examples/blocking-route/BlockingRouteService.java --load 3
 * </pre>
 */
public class BlockingRouteService {
    static int port = -1;
    static double loadSeconds = 3;
    static int clients = 50;
    static int minRequests;
    static long blockingMillis = 50;

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--load" -> loadSeconds = Double.parseDouble(args[++i]);
                case "--clients" -> clients = Integer.parseInt(args[++i]);
                case "--min-requests" -> minRequests = Integer.parseInt(args[++i]);
                case "--blocking-ms" -> blockingMillis = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        run(BlockingRouteService::serve);
    }

    static Void serve() throws Exception {
        HttpResponse price = HttpResponse.text(200, "42");
        HttpServer upstream = HttpServer.start(getRunningLoop(), request -> price, "127.0.0.1", 0,
                HttpServerOptions.defaults());
        String upstreamUrl = "http://127.0.0.1:" + upstream.port() + "/price";
        HttpClient upstreamClient = HttpClient.create(getRunningLoop()); // the defaults, as a new user has them
        HttpServer front = HttpServer.start(getRunningLoop(), request -> {
            String row = toThread(BlockingRouteService::queryDatabase); // the README's valve
            String p = upstreamClient.get(upstreamUrl).body().text();
            return HttpResponse.text(200, row + ", price " + p + "\n");
        }, "127.0.0.1", Math.max(port, 0), HttpServerOptions.defaults());
        if (port >= 0) {
            System.out.println("listening on 127.0.0.1:" + front.port());
            front.serveForever();
            return null;
        }
        int answered = load(front.port());
        System.out.println("blocking-route service: " + answered + " requests answered in " + loadSeconds + " s");
        upstreamClient.close();
        front.close();
        upstream.close();
        return null;
    }

    static String queryDatabase() throws InterruptedException {
        Thread.sleep(blockingMillis); // stands in for a blocking JDBC query
        return "order 7";
    }

    /** {@link #clients} concurrent requests through one HttpClient, for {@link #loadSeconds}. */
    static int load(int frontPort) throws Exception {
        HttpClient client = HttpClient.create(getRunningLoop(),
                HttpClientOptions.defaults().withMaxConnectionsPerOrigin(clients).withMaxIdlePerOrigin(clients));
        String url = "http://127.0.0.1:" + frontPort + "/order";
        double until = getRunningLoop().time() + loadSeconds;
        int[] answered = {0};
        List<Task<Void>> tasks = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            tasks.add(createTask(() -> {
                while (getRunningLoop().time() < until || answered[0] < minRequests) {
                    client.get(url).body().text();
                    answered[0]++;
                }
                return null;
            }, "client-" + c));
        }
        for (Task<Void> t : tasks) {
            await(t);
        }
        client.close();
        return answered[0];
    }
}
