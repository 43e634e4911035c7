import io.jasyncio.bench.TaskRoundTripThreadsBenchmark;
import io.jasyncio.bench.VirtualThreadFloorBenchmark;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * The portable engine's task round trip against its floor in process CPU time, which a loaded
 * machine disturbs less than wall time (waiting for a core is not counted). The loop and the task
 * bodies run on virtual threads whose carriers change, so the whole process's CPU time is taken
 * (GC and JIT threads included; the heap is fixed). Each round runs
 * TaskRoundTripThreadsBenchmark.roundTripOnVirtualLoopThread's op (100,000 tasks on the portable
 * engine, the loop on a virtual thread as Asyncio.run drives it) and VirtualThreadFloorBenchmark's
 * op (100,000 bare virtual threads in strict turn with a virtual loop thread) alternately in one
 * JVM; prints the quartiles of the second half of the rounds, ns per task, CPU and wall.
 *
 * <p>Run: {@code java -Djasyncio.engine=threads -Xms2g -Xmx2g -XX:+AlwaysPreTouch
 * -cp jasyncio-bench/target/benchmarks.jar bench/micro/PortableCpuTime.java [ROUNDS=60]}
 */
public class PortableCpuTime {
    static final int N = 100_000;

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        TaskRoundTripThreadsBenchmark tasks = new TaskRoundTripThreadsBenchmark();
        tasks.openLoop();
        VirtualThreadFloorBenchmark floor = new VirtualThreadFloorBenchmark();
        long[][] cpu = new long[2][rounds];
        long[][] wall = new long[2][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int which = 0; which < 2; which++) {
                long c0 = os.getProcessCpuTime();
                long w0 = System.nanoTime();
                if (which == 0) {
                    tasks.roundTripOnVirtualLoopThread();
                } else {
                    floor.roundTrip();
                }
                cpu[which][r] = os.getProcessCpuTime() - c0;
                wall[which][r] = System.nanoTime() - w0;
            }
        }
        tasks.closeLoop();
        String[] names = {"portable", "floor"};
        double[] medianCpu = new double[2];
        for (int which = 0; which < 2; which++) {
            long[] c = Arrays.copyOfRange(cpu[which], rounds / 2, rounds);
            long[] w = Arrays.copyOfRange(wall[which], rounds / 2, rounds);
            Arrays.sort(c);
            Arrays.sort(w);
            medianCpu[which] = c[c.length / 2] / (double) N;
            System.out.printf("RESULT %s cpu_ns_per_task q1=%.0f median=%.0f q3=%.0f | wall_ns_per_task q1=%.0f median=%.0f q3=%.0f%n",
                    names[which], c[c.length / 4] / (double) N, medianCpu[which], c[3 * c.length / 4] / (double) N,
                    w[w.length / 4] / (double) N, w[w.length / 2] / (double) N, w[3 * w.length / 4] / (double) N);
        }
        System.out.printf("RESULT portable/floor cpu_median_ratio=%.2f%n", medianCpu[0] / medianCpu[1]);
    }
}
