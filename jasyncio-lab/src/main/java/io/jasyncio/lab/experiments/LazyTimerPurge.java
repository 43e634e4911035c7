package io.jasyncio.lab.experiments;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.TimerHandle;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * Experiment 3: cancelling a timer only marks it. Cancelled timers stay in the heap (and in
 * memory) until they are more than 100 and more than half of the heap; then the next iteration
 * rebuilds the heap without them.
 */
final class LazyTimerPurge implements Experiment {
    private static final int STEPS = 10;

    @Override
    public String name() {
        return "lazy-timers";
    }

    @Override
    public String title() {
        return "Cancelled timers linger";
    }

    @Override
    public String claim() {
        return "Cancelling a callLater timer only marks it: cancelled timeouts stay in the heap, and in memory, "
                + "until they reach its top or are more than 100 and more than half of it; then the next iteration "
                + "purges them all.";
    }

    /** One row of the timeline: after cancelling {@code cancelledSoFar} timers and running one iteration. */
    private record Point(int cancelledSoFar, int heapSize, int cancelledInHeap, double retainedMb, double iterationMs) {
    }

    @Override
    public void run(Trial trial) throws Exception {
        int n = trial.size(200_000, 1_000_000);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        EventLoop loop = EventLoops.newEventLoop();
        List<Point> timeline = new ArrayList<>();
        try {
            long baseline = usedAfterGc(memory);
            // A live timer at the top of the heap (say, a keepalive due in a minute): cancelled
            // timers behind it cannot simply be popped off the top as they come due.
            loop.callLater(60.0, () -> { });
            trial.progress("a keepalive timer due in a minute, then %,d callLater timeouts an hour out", n);
            Runnable onTimeout = () -> { };
            List<TimerHandle> timers = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                timers.add(loop.callLater(3600.0, onTimeout));
            }
            timeline.add(measure(loop, memory, 0, baseline));
            trial.progress("cancelling them %d%% at a time, one loop iteration and a full GC after each step", 100 / STEPS);
            for (int step = 1; step <= STEPS; step++) {
                int from = (int) ((long) n * (step - 1) / STEPS);
                int to = (int) ((long) n * step / STEPS);
                for (int i = from; i < to; i++) {
                    timers.get(i).cancel();
                }
                for (int i = from; i < to; i++) {
                    timers.set(i, null); // only the loop's heap still refers to them now
                }
                timeline.add(measure(loop, memory, to, baseline));
            }
        } finally {
            loop.close();
        }
        report(trial, n, timeline);
    }

    /** Runs one loop iteration (where the purge decision is made), then measures. */
    private static Point measure(EventLoop loop, MemoryMXBean memory, int cancelledSoFar, long baseline) {
        long start = System.nanoTime();
        loop.callSoon(loop::stop);
        loop.runForever();
        double iterationMs = (System.nanoTime() - start) / 1e6;
        double retained = (usedAfterGc(memory) - baseline) / 1e6;
        return new Point(cancelledSoFar, loop.scheduledTimerCount(), loop.cancelledTimerCount(), retained, iterationMs);
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) { // a few rounds: the smallest reading is the least noisy
            System.gc();
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static void report(Trial trial, int n, List<Point> timeline) {
        trial.report("%-10s %12s %14s %14s %13s", "cancelled", "heap size", "cancelled in", "retained", "iteration");
        trial.report("%-10s %12s %14s %14s %13s", "", "", "the heap", "(after GC)", "took");
        for (Point p : timeline) {
            trial.report("%9d%% %,12d %,14d %11.1f MB %10.2f ms", (int) (100L * p.cancelledSoFar / n), p.heapSize,
                    p.cancelledInHeap, p.retainedMb, p.iterationMs);
        }
        double[] x = new double[timeline.size()];
        double[] heap = new double[timeline.size()];
        double[] cancelled = new double[timeline.size()];
        double[] mb = new double[timeline.size()];
        List<Integer> heapSizes = new ArrayList<>();
        List<Double> retained = new ArrayList<>();
        for (int i = 0; i < timeline.size(); i++) {
            Point p = timeline.get(i);
            x[i] = 100.0 * p.cancelledSoFar / n;
            heap[i] = p.heapSize;
            cancelled[i] = p.cancelledInHeap;
            mb[i] = p.retainedMb;
            heapSizes.add(p.heapSize);
            retained.add(p.retainedMb);
        }
        trial.chart(new Chart.Lines("Timer heap size as timeouts are cancelled (one iteration after each step)",
                "% of the timers cancelled", "timers",
                List.of(new Chart.Series("in the heap", x, heap), new Chart.Series("cancelled, still in the heap", x, cancelled)),
                Chart.Shape.HELD_AFTER, false)); // a purge is a drop between two steps, not a slope
        trial.chart(new Chart.Lines("Memory retained by the loop (after a full GC)", "% of the timers cancelled", "MB",
                List.of(new Chart.Series("retained", x, mb))));
        trial.measure("timers", n);
        trial.measure("heapSize", heapSizes);
        trial.measure("retainedMb", retained);

        // Before the threshold: every cancelled timer is still in the heap.
        Point half = timeline.get(STEPS / 2);
        Point allLive = timeline.get(0);
        boolean lingered = true;
        for (Point p : timeline.subList(1, STEPS / 2 + 1)) {
            lingered &= p.heapSize == n + 1 && p.cancelledInHeap == p.cancelledSoFar;
        }
        trial.check(lingered, "up to half of the heap cancelled, every cancelled timer stays in the heap",
                "at %d%% cancelled the heap still holds %,d timers, %,d of them cancelled",
                100 * STEPS / 2 / STEPS, half.heapSize, half.cancelledInHeap);

        // Past it: the next iteration rebuilds the heap with only the live timers.
        Point past = timeline.get(STEPS / 2 + 1);
        int live = n - past.cancelledSoFar + 1;
        trial.check(past.heapSize == live && past.cancelledInHeap == 0,
                "once more than half are cancelled, the next iteration purges them",
                "at %d%% cancelled the heap holds %,d timers (%,d live), %,d cancelled; that iteration took %.1f ms",
                100 * (STEPS / 2 + 1) / STEPS, past.heapSize, live, past.cancelledInHeap, past.iterationMs);
        trial.measure("purgeIterationMs", past.iterationMs);

        trial.report("that is about %.0f bytes per pending timer (handle + heap slot)", allLive.retainedMb * 1e6 / n);
        Point last = timeline.get(STEPS);
        trial.check(half.retainedMb >= 0.7 * allLive.retainedMb && last.retainedMb <= 0.3 * allLive.retainedMb
                        && allLive.retainedMb > 1,
                "the lingering timers hold their memory until purged",
                "%.1f MB with all live, %.1f MB at half cancelled, %.1f MB after the last purge",
                allLive.retainedMb, half.retainedMb, last.retainedMb);
    }
}
