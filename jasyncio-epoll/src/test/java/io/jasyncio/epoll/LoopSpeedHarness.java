package io.jasyncio.epoll;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A small standalone harness comparing the loops' per-iteration cost (not a unit test: run it by
 * hand, see docs/BENCHMARKS.md, "Measurements formerly in ARCHITECTURE.md"). Three workloads,
 * each run on "nio" and "epoll" in alternation, several rounds, reporting the median rate and the epoll/nio ratio:
 * <ul>
 *   <li>{@code pingpong}: one byte bouncing over a loopback TCP pair, both ends on readers
 *       (two selects, two reads and two writes per round trip);</li>
 *   <li>{@code wakeup}: another thread hands the idle loop a callback (callSoonThreadsafe) and
 *       waits for it to run: the poller's wake-up path, round trip;</li>
 *   <li>{@code spin}: a callback that reschedules itself, nothing watched: the bare iteration;</li>
 *   <li>{@code spin+fd}: the same with one idle pipe watched, so every iteration must poll
 *       (timeout 0).</li>
 * </ul>
 * Usage: {@code LoopSpeedHarness [seconds-per-run] [rounds]} (defaults 2 and 5).
 */
public final class LoopSpeedHarness {
    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        long runNanos = (long) (seconds * 1e9);
        String[] loops = {"nio", "epoll"};
        String[] workloads = {"pingpong", "wakeup", "spin", "spin+fd"};
        System.out.printf(Locale.ROOT, "%d rounds of %.1f s per loop and workload (median ops/s; first round is warm-up)%n", rounds, seconds);
        for (String workload : workloads) {
            List<List<Double>> rates = List.of(new ArrayList<>(), new ArrayList<>());
            for (int round = 0; round <= rounds; round++) {
                for (int l = 0; l < loops.length; l++) {
                    double rate = run(workload, loops[l], runNanos);
                    if (round > 0) {
                        rates.get(l).add(rate);
                    }
                }
            }
            double nio = median(rates.get(0));
            double epoll = median(rates.get(1));
            System.out.printf(Locale.ROOT, "%-9s nio %,12.0f ops/s   epoll %,12.0f ops/s   epoll/nio %.2fx%n",
                    workload, nio, epoll, epoll / nio);
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    static double run(String workload, String loopName, long runNanos) throws Exception {
        EventLoop loop = EventLoops.newEventLoop(loopName);
        try {
            return switch (workload) {
                case "pingpong" -> pingPong(loop, runNanos);
                case "wakeup" -> wakeup(loop, runNanos);
                case "spin" -> spin(loop, runNanos);
                case "spin+fd" -> spinWatchingAnIdlePipe(loop, runNanos);
                default -> throw new IllegalArgumentException(workload);
            };
        } finally {
            loop.close();
        }
    }

    /** Round trips per second of one byte between two readers on a loopback TCP pair. */
    static double pingPong(EventLoop loop, long runNanos) throws IOException {
        try (EpollLoopIoTest.SocketPair pair = EpollLoopIoTest.SocketPair.open()) {
            ByteBuffer bufA = ByteBuffer.allocateDirect(64);
            ByteBuffer bufB = ByteBuffer.allocateDirect(64);
            long[] count = {0};
            long start = System.nanoTime();
            long end = start + runNanos;
            Future<Long> done = loop.createFuture();
            loop.addReader(pair.b, () -> bounce(pair.b, bufB));
            loop.addReader(pair.a, () -> {
                readOnce(pair.a, bufA);
                if (++count[0] % 256 == 0 && System.nanoTime() >= end) {
                    loop.removeReader(pair.a);
                    loop.removeReader(pair.b);
                    done.setResult(System.nanoTime() - start);
                    return;
                }
                bufA.clear().put((byte) 1).flip();
                writeOnce(pair.a, bufA);
            });
            bufA.clear().put((byte) 1).flip();
            writeOnce(pair.a, bufA);
            long took = loop.runUntilComplete(done);
            return count[0] / (took / 1e9);
        }
    }

    private static void bounce(SocketChannel ch, ByteBuffer buf) {
        readOnce(ch, buf);
        buf.flip();
        writeOnce(ch, buf);
    }

    private static void readOnce(SocketChannel ch, ByteBuffer buf) {
        try {
            buf.clear();
            ch.read(buf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeOnce(SocketChannel ch, ByteBuffer buf) {
        try {
            ch.write(buf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Round trips per second: another thread wakes the idle loop and waits for its callback. */
    static double wakeup(EventLoop loop, long runNanos) throws InterruptedException {
        Thread loopThread = Thread.ofPlatform().start(loop::runForever);
        Thread caller = Thread.currentThread();
        long count = 0;
        long start = System.nanoTime();
        long end = start + runNanos;
        try {
            while (System.nanoTime() < end) {
                Done d = new Done();
                loop.callSoonThreadsafe(() -> {
                    d.done = true;
                    LockSupport.unpark(caller);
                });
                while (!d.done) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                }
                count++;
            }
            return count / ((System.nanoTime() - start) / 1e9);
        } finally {
            loop.callSoonThreadsafe(loop::stop);
            loopThread.join();
        }
    }

    private static final class Done {
        volatile boolean done;
    }

    static double spinWatchingAnIdlePipe(EventLoop loop, long runNanos) throws IOException {
        Pipe pipe = Pipe.open();
        try (var source = pipe.source(); var sink = pipe.sink()) {
            loop.addReader(source, () -> { });
            double rate = spin(loop, runNanos);
            loop.removeReader(source);
            return rate;
        }
    }

    /** Loop iterations per second when every iteration has one ready callback (select timeout 0). */
    static double spin(EventLoop loop, long runNanos) {
        long[] count = {0};
        long start = System.nanoTime();
        long end = start + runNanos;
        Future<Long> done = loop.createFuture();
        Runnable[] self = new Runnable[1];
        self[0] = () -> {
            if (++count[0] % 1024 == 0 && System.nanoTime() >= end) {
                done.setResult(System.nanoTime() - start);
            } else {
                loop.callSoon(self[0]);
            }
        };
        loop.callSoon(self[0]);
        long took = loop.runUntilComplete(done);
        return count[0] / (took / 1e9);
    }
}
