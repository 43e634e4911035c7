package io.jasyncio.lab.experiments;

import io.jasyncio.lab.net.EchoServer;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * Experiment 7: a faster loop implementation speeds up the machinery (polling, dispatch, socket
 * reads), so it helps echo-style work where the machinery is most of the cost, and helps less
 * and less as the handler's own code dominates.
 */
final class FasterLoops implements Experiment {
    private static final int MESSAGE_BYTES = 128;
    /** Messages each client keeps in flight: the server sees bursts, as a proxy does. */
    private static final int PIPELINE_DEPTH = 8;
    /** Handler work per message in the handler-heavy workload. */
    private static final double HANDLER_MICROS = 50;
    private static final int CLIENT_TIMEOUT_MS = 10_000;

    @Override
    public String name() {
        return "loops";
    }

    /** How far two runs of the same loop drift apart on a busy 2-core machine (measured: up to 1.2x). */
    private static final double NOISE_ALLOWANCE = 0.25;

    @Override
    public String title() {
        return "Where a faster loop helps and where it does not";
    }

    @Override
    public String claim() {
        return "A loop implementation can only speed up the machinery (polling, dispatch, reads and writes): "
                + "whatever gain one loop has over another on socket-heavy echo here, it shrinks toward nothing "
                + "as the handler's own code dominates the profile.";
    }

    private record Workload(String name, int hashRoundsPerMessage) {
    }

    @Override
    public void run(Trial trial) throws Exception {
        List<String> loops = EventLoops.availableNames();
        int connections = trial.size(2, 4);
        double warmup = trial.size(0.3, 1.0);
        double seconds = trial.size(0.8, 1.5);
        int hashRounds = calibrate();
        trial.report("loop implementations available here: %s", String.join(", ", loops));
        trial.report("handler-heavy: %d SHA-256 rounds per %d-byte message (about %.0f us of handler code)", hashRounds,
                MESSAGE_BYTES, HANDLER_MICROS);
        List<Workload> workloads = List.of(new Workload("echo", 0), new Workload("handler-heavy", hashRounds));

        // With loops to compare, each is measured three times, alternating, and keeps its best run: a
        // busy machine only ever slows a run down, and alternating spreads the busy moments fairly.
        // (Two copies of the same loop measured this way on a busy 2-core machine still differed by
        // up to 1.2x: hence the 0.15 allowance below.)
        int rounds = loops.size() > 1 ? 2 : 1;
        if (rounds > 1) {
            trial.report("each loop measured %d times, alternating; the best run counts", rounds);
        }
        double[][] throughput = new double[loops.size()][workloads.size()];
        for (int w = 0; w < workloads.size(); w++) {
            for (int round = 0; round < rounds; round++) {
                for (int l = 0; l < loops.size(); l++) {
                    trial.progress("%s on the %s loop: %d connections, %d x %d-byte messages in flight each, %.1f s",
                            workloads.get(w).name, loops.get(l), connections, PIPELINE_DEPTH, MESSAGE_BYTES, seconds);
                    double measured = measure(loops.get(l), workloads.get(w), connections, warmup, seconds);
                    throughput[l][w] = Math.max(throughput[l][w], measured);
                }
            }
            for (int l = 0; l < loops.size(); l++) {
                trial.report("%-14s %-8s %,12.0f messages/s", workloads.get(w).name, loops.get(l), throughput[l][w]);
                trial.measure(workloads.get(w).name + "." + loops.get(l) + ".messagesPerSecond", throughput[l][w]);
            }
        }
        for (int w = 0; w < workloads.size(); w++) {
            double[] byLoop = new double[loops.size()];
            for (int l = 0; l < loops.size(); l++) {
                byLoop[l] = throughput[l][w];
            }
            trial.chart(new Chart.Bars("Throughput by loop implementation: " + workloads.get(w).name,
                    "messages per second", loops, List.of(new Chart.BarSeries(workloads.get(w).name, byLoop))));
        }
        if (loops.size() > 1) {
            List<Chart.BarSeries> relative = new ArrayList<>();
            for (int l = 0; l < loops.size(); l++) {
                double[] r = new double[workloads.size()];
                for (int w = 0; w < workloads.size(); w++) {
                    r[w] = 100 * throughput[l][w] / throughput[0][w];
                }
                relative.add(new Chart.BarSeries(loops.get(l), r));
            }
            trial.chart(new Chart.Bars("Throughput relative to the " + loops.get(0) + " loop", "% of " + loops.get(0),
                    workloads.stream().map(Workload::name).toList(), relative));
        }

        if (loops.size() < 2) {
            trial.skip("only one loop implementation can run here (" + loops.get(0)
                    + "): there is nothing to compare it with");
            return;
        }
        int fastest = 0;
        int slowest = 0;
        for (int l = 1; l < loops.size(); l++) {
            if (throughput[l][0] > throughput[fastest][0]) {
                fastest = l;
            }
            if (throughput[l][0] < throughput[slowest][0]) {
                slowest = l;
            }
        }
        double echoGain = throughput[fastest][0] / throughput[slowest][0];
        double heavyGain = throughput[fastest][1] / throughput[slowest][1];
        trial.measure("echoGain", echoGain);
        trial.measure("handlerHeavyGain", heavyGain);
        // In Java both loops are thin layers over the same kernel calls, so the echo gain is small
        // here (uvloop's 2-4x over asyncio comes from replacing Python machinery); it is reported,
        // not required. What must hold is the second half: handler code leaves the loop nothing to win.
        trial.report("echo: %s is %.2fx %s on this machine", loops.get(fastest), echoGain, loops.get(slowest));
        double heavyDifference = Math.abs(Math.log(heavyGain));
        double echoDifference = Math.abs(Math.log(echoGain));
        trial.check(heavyDifference <= echoDifference + NOISE_ALLOWANCE,
                "the difference between loops shrinks as handler code dominates",
                "handler-heavy: %s %.2fx %s, echo: %.2fx (allowance %.2f for a busy machine)", loops.get(fastest),
                heavyGain, loops.get(slowest), echoGain, NOISE_ALLOWANCE);
        trial.check(heavyDifference <= Math.log(1 + NOISE_ALLOWANCE),
                "with handler code dominating, the choice of loop makes next to no difference",
                "handler-heavy: %.2fx (within %.2fx)", heavyGain, 1 + NOISE_ALLOWANCE);
    }

    /** Rounds of SHA-256 that take about {@link #HANDLER_MICROS} here. */
    private static int calibrate() {
        CpuWork.hashFor(0.3); // long enough for the JIT: a cold measurement would ask for too few rounds
        int rounds = 20_000;
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long t0 = System.nanoTime();
            CpuWork.hashRounds(rounds);
            best = Math.min(best, System.nanoTime() - t0);
        }
        double nanosPerRound = (double) best / rounds;
        return Math.max(1, (int) Math.round(HANDLER_MICROS * 1000 / nanosPerRound));
    }

    /** Messages per second echoed by an echo server on the named loop. */
    private static double measure(String loopName, Workload workload, int connections, double warmup, double seconds)
            throws Exception {
        EventLoop loop = EventLoops.newEventLoop(loopName);
        int[] carry = {0};
        IntConsumer handler = workload.hashRoundsPerMessage == 0 ? n -> { } : n -> {
            carry[0] += n;
            int messages = carry[0] / MESSAGE_BYTES;
            carry[0] %= MESSAGE_BYTES;
            CpuWork.hashRounds(messages * workload.hashRoundsPerMessage);
        };
        CompletableFuture<EchoServer> started = new CompletableFuture<>();
        loop.callSoon(() -> {
            try {
                started.complete(EchoServer.start(loop, handler));
            } catch (IOException | RuntimeException e) {
                started.completeExceptionally(e);
            }
        });
        Thread loopThread = Thread.ofPlatform().name("lab-echo-loop-" + loopName).start(loop::runForever);
        try {
            EchoServer server = started.get(10, TimeUnit.SECONDS);
            long now = System.nanoTime();
            long measureFrom = now + (long) (warmup * 1e9);
            long end = measureFrom + (long) (seconds * 1e9);
            List<EchoClient> clients = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                EchoClient c = new EchoClient(server.port(), measureFrom, end);
                clients.add(c);
                threads.add(Thread.ofPlatform().name("lab-echo-client-" + i).start(c));
            }
            long messages = 0;
            for (int i = 0; i < threads.size(); i++) {
                threads.get(i).join(CLIENT_TIMEOUT_MS + (long) ((warmup + seconds) * 1000));
                if (clients.get(i).failure != null) {
                    throw clients.get(i).failure;
                }
                messages += clients.get(i).messages;
            }
            loop.callSoonThreadsafe(() -> {
                server.close();
                loop.stop();
            });
            loopThread.join(10_000);
            return messages / seconds;
        } finally {
            if (loopThread.isAlive()) {
                loop.callSoonThreadsafe(loop::stop);
                loopThread.join(10_000);
            }
            loop.close();
        }
    }

    /** A blocking client keeping {@link #PIPELINE_DEPTH} messages in flight; counts echoes in the window. */
    private static final class EchoClient implements Runnable {
        final int port;
        final long measureFrom;
        final long end;
        long messages;
        IOException failure;

        EchoClient(int port, long measureFrom, long end) {
            this.port = port;
            this.measureFrom = measureFrom;
            this.end = end;
        }

        @Override
        public void run() {
            byte[] burst = new byte[MESSAGE_BYTES * PIPELINE_DEPTH];
            byte[] back = new byte[burst.length];
            try (Socket socket = new Socket()) {
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(CLIENT_TIMEOUT_MS);
                socket.connect(new InetSocketAddress("127.0.0.1", port), CLIENT_TIMEOUT_MS);
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                long now;
                while ((now = System.nanoTime()) < end) {
                    out.write(burst);
                    if (in.readNBytes(back, 0, back.length) != back.length) {
                        throw new IOException("the echo server closed the connection");
                    }
                    if (now >= measureFrom) {
                        messages += PIPELINE_DEPTH;
                    }
                }
            } catch (IOException e) {
                failure = e;
            }
        }
    }
}
