import io.jasyncio.Asyncio;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;
import jdk.internal.vm.Continuation;
import jdk.internal.vm.ContinuationScope;

import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The task round trip against its floor in CPU time of the thread that runs them, which a loaded
 * machine disturbs far less than wall time (waiting for a core is not counted; caches shared with
 * other work still are). Each round runs, in turn in one JVM, TaskRoundTripBenchmark's op (100,000
 * tasks: create, one sleep(0), finish, a done-callback counts it: the shape Node's Promise.all is
 * compared with), the same without the per-task done-callback (only the last task, which finishes
 * last, gets one: the floor's shape, which has no callback per continuation) and
 * ContinuationFloorBenchmark's op (100,000 bare JDK continuations: create, mount, yield once, mount
 * to finish); prints the quartiles of the second half of the rounds, per task, and the ratios of
 * the medians: the first line as before, the second for the shape without the done-callback.
 *
 * <p>Run: {@code java --add-exports java.base/jdk.internal.vm=ALL-UNNAMED -Xms2g -Xmx2g
 * -XX:+AlwaysPreTouch -cp jasyncio-bench/target/benchmarks.jar bench/micro/TaskCpuTime.java [ROUNDS=200]}
 */
public class TaskCpuTime {
    static final int N = 100_000;
    static final ContinuationScope SCOPE = new ContinuationScope("floor");
    static final ArrayDeque<Continuation> READY = new ArrayDeque<>();
    static long sum;

    static int tasks(EventLoop loop) {
        return tasks(loop, true);
    }

    /** {@code everyDone}: each task gets a done-callback (the benchmark's shape); else only the last one does. */
    static int tasks(EventLoop loop, boolean everyDone) {
        Future<Integer> allDone = loop.createFuture();
        int[] remaining = {N};
        Consumer<Future<Integer>> countDone = f -> {
            if (--remaining[0] == 0) {
                allDone.setResult(N);
            }
        };
        for (int i = 0; i < N; i++) {
            int n = i;
            Task<Integer> task = Tasks.create(loop, () -> {
                Asyncio.sleep(0);
                return n;
            }, null, null);
            if (everyDone) {
                task.addDoneCallback(countDone);
            } else if (n == N - 1) { // FIFO: the last task created finishes last
                task.addDoneCallback(f -> allDone.setResult(N));
            }
        }
        return loop.runUntilComplete(allDone);
    }

    static long floor() {
        for (int i = 0; i < N; i++) {
            int n = i;
            READY.add(new Continuation(SCOPE, () -> {
                Continuation.yield(SCOPE);
                sum += n;
            }));
        }
        Continuation c;
        while ((c = READY.poll()) != null) {
            c.run();
            if (!c.isDone()) {
                READY.add(c);
            }
        }
        return sum;
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        var threads = ManagementFactory.getThreadMXBean();
        EventLoop loop = EventLoops.newEventLoop("nio");
        long[] task = new long[rounds / 2];
        long[] lastOnly = new long[rounds / 2];
        long[] bare = new long[rounds / 2];
        for (int r = 0; r < rounds; r++) {
            long t0 = threads.getCurrentThreadCpuTime();
            tasks(loop, true);
            long t1 = threads.getCurrentThreadCpuTime();
            tasks(loop, false);
            long t2 = threads.getCurrentThreadCpuTime();
            floor();
            long t3 = threads.getCurrentThreadCpuTime();
            if (r >= rounds - rounds / 2) {
                task[r - (rounds - rounds / 2)] = t1 - t0;
                lastOnly[r - (rounds - rounds / 2)] = t2 - t1;
                bare[r - (rounds - rounds / 2)] = t3 - t2;
            }
        }
        loop.close();
        Arrays.sort(task);
        Arrays.sort(lastOnly);
        Arrays.sort(bare);
        int n = task.length;
        System.out.printf("CPU ns per task (p25 / median / p75 of the last %d rounds): task round trip %.0f / %.0f / %.0f, "
                        + "bare continuation floor %.0f / %.0f / %.0f; task / floor %.2fx%n", n,
                task[n / 4] / (double) N, task[n / 2] / (double) N, task[3 * n / 4] / (double) N,
                bare[n / 4] / (double) N, bare[n / 2] / (double) N, bare[3 * n / 4] / (double) N,
                (double) task[n / 2] / bare[n / 2]);
        System.out.printf("CPU ns per task without the per-task done-callback (only the last task's): task round trip %.0f / %.0f / %.0f; "
                        + "task / floor %.2fx%n",
                lastOnly[n / 4] / (double) N, lastOnly[n / 2] / (double) N, lastOnly[3 * n / 4] / (double) N,
                (double) lastOnly[n / 2] / bare[n / 2]);
    }
}
