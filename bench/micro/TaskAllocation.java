import io.jasyncio.Asyncio;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Where TaskRoundTripBenchmark's bytes go, per task and per phase: 100,000 tasks created (each
 * body: sleep(0), return its number; a done-callback counts it), then one loop pass (every first
 * step, each suspending in sleep(0)), then the next (every second step: the body ends, the task
 * finishes), then the done-callbacks. Bytes allocated by this thread per phase (exact, from the
 * JVM's per-thread counter), and the live objects each of the first two phases adds, by class
 * (heap histograms after a full GC). The last of ROUNDS rounds is reported, after the JIT settled.
 *
 * <p>Run: {@code java --add-exports java.base/jdk.internal.vm=ALL-UNNAMED -Xms2g -Xmx2g
 * -cp jasyncio-bench/target/benchmarks.jar bench/micro/TaskAllocation.java [ROUNDS=30]}
 */
public class TaskAllocation {
    static final int N = 100_000;
    static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        EventLoop loop = EventLoops.newEventLoop("nio");
        for (int round = 1; round <= rounds; round++) {
            boolean report = round == rounds;
            Future<Integer> allDone = loop.createFuture();
            int[] remaining = {N};
            Consumer<Future<Integer>> countDone = f -> {
                if (--remaining[0] == 0) {
                    allDone.setResult(N);
                }
            };
            Map<String, long[]> beforeCreate = report ? liveObjects() : null;
            long t0 = allocated();
            for (int i = 0; i < N; i++) {
                int n = i;
                Task<Integer> task = Tasks.create(loop, () -> {
                    Asyncio.sleep(0);
                    return n;
                }, null, null);
                task.addDoneCallback(countDone);
            }
            long created = allocated() - t0;
            Map<String, long[]> afterCreate = report ? liveObjects() : null;
            long firstSteps = onePass(loop);
            Map<String, long[]> afterFirstSteps = report ? liveObjects() : null;
            long secondSteps = onePass(loop);
            long t1 = allocated();
            loop.runUntilComplete(allDone);
            long callbacks = allocated() - t1;
            if (report) {
                System.out.printf("bytes allocated per task: creation %.1f, first step %.1f, second step %.1f, "
                                + "done-callbacks %.1f; total %.1f%n", created / (double) N, firstSteps / (double) N,
                        secondSteps / (double) N, callbacks / (double) N,
                        (created + firstSteps + secondSteps + callbacks) / (double) N);
                printAdded("creating a task (with its done-callback)", beforeCreate, afterCreate);
                printAdded("its first step (suspended in sleep(0))", afterCreate, afterFirstSteps);
            }
        }
        loop.close();
    }

    /** Bytes this thread allocated running one pass of the loop over what is queued now (the stop's own handle excluded). */
    static long onePass(EventLoop loop) {
        loop.callSoon(loop::stop);
        long t = allocated();
        loop.runForever();
        return allocated() - t;
    }

    static long allocated() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    /** Live instances and bytes by class, after a full GC (the GC.class_histogram diagnostic command). */
    static Map<String, long[]> liveObjects() throws Exception {
        String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        Map<String, long[]> byClass = new HashMap<>();
        for (String line : histogram.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 4 && f[0].endsWith(":")) {
                byClass.put(f[3], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])});
            }
        }
        return byClass;
    }

    static void printAdded(String phase, Map<String, long[]> before, Map<String, long[]> after) {
        System.out.println("live objects added per task by " + phase + ": instances, bytes, class");
        List<String> classes = new ArrayList<>(after.keySet());
        classes.sort(Comparator.comparingLong(c -> -added(before, after, c, 1)));
        long total = 0;
        for (String c : classes) {
            long bytes = added(before, after, c, 1);
            if (bytes > N / 2) { // at least half a byte per task: this phase's, not noise
                System.out.printf("  %5.2f %6.1f  %s%n", added(before, after, c, 0) / (double) N, bytes / (double) N, c);
                total += bytes;
            }
        }
        System.out.printf("  total %.1f bytes%n", total / (double) N);
    }

    static long added(Map<String, long[]> before, Map<String, long[]> after, String c, int field) {
        return after.get(c)[field] - before.getOrDefault(c, new long[2])[field];
    }
}
