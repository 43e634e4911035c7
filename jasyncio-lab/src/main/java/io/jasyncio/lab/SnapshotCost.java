package io.jasyncio.lab;

import io.jasyncio.Asyncio;
import io.jasyncio.debug.CompositeObserver;
import io.jasyncio.debug.graph.TaskRow;
import io.jasyncio.debug.graph.TaskSnapshot;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.Handle;
import io.jasyncio.loop.LoopObserver;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./jasyncio bench snapshot}: what {@code ps}/{@code pstree} cost the program they read.
 * {@code --tasks} tasks suspended in TaskGroups (100 groups, as the album example nests them), then
 * {@code --rounds} snapshots taken as the task-graph bean takes them ({@link TaskSnapshot#take},
 * from another thread); per round: the longest callback the loop ran meanwhile (how long it was
 * held at once), the callbacks the snapshot took, the wall time (rows built included), and what the
 * loop thread allocated (the rows are built on the asking thread and not counted there).
 */
@Command(name = "snapshot", mixinStandardHelpOptions = true,
        description = {"The cost of a ps/pstree snapshot to the program: the longest hold of the loop, wall time, allocation.",
                "Ends with one line: RESULT tasks=... hold_ms_max=... slices=... wall_ms_p50=... loop_alloc_kib=..."})
final class SnapshotCost implements Callable<Integer> {
    @Option(names = "--tasks", defaultValue = "10000", description = "suspended tasks (default: ${DEFAULT-VALUE})")
    int tasks;

    @Option(names = "--rounds", defaultValue = "20", description = "snapshots measured, after 5 unmeasured (default: ${DEFAULT-VALUE})")
    int rounds;

    /**
     * The callbacks since the last reset: how many ran, the longest (wall time: how long the loop
     * was held at once, machine stalls included) and the loop thread's CPU time in the first (the
     * snapshot's structure phase) and in the longest of the others (a slice of stack walks).
     */
    private static final class Holds implements LoopObserver {
        private final java.lang.management.ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        private long cpuAtStart;
        volatile long longest;
        volatile long firstCpu = -1;
        volatile long longestOtherCpu;
        volatile int count;

        @Override
        public void handleStarting(Handle handle, long startNanos) {
            cpuAtStart = cpu.getCurrentThreadCpuTime();
        }

        @Override
        public void handleFinished(Handle handle, long nanos) {
            long used = cpu.getCurrentThreadCpuTime() - cpuAtStart;
            if (count++ == 0) {
                firstCpu = used;
            } else if (used > longestOtherCpu) {
                longestOtherCpu = used;
            }
            if (nanos > longest) {
                longest = nanos;
            }
        }
    }

    @Override
    public Integer call() throws Exception {
        int groups = Math.max(1, Math.min(100, tasks / 10));
        int perGroup = tasks / groups;
        Asyncio.run(() -> {
            EventLoop loop = Asyncio.getRunningLoop();
            int[] started = {0};
            for (int g = 0; g < groups; g++) {
                Asyncio.createTask(() -> Asyncio.taskGroup(tg -> {
                    for (int i = 0; i < perGroup; i++) {
                        tg.createTask(() -> {
                            started[0]++;
                            Asyncio.sleep(3600);
                        });
                    }
                }), "group-" + g);
            }
            for (int i = 0; i < 1000 && started[0] < groups * perGroup; i++) {
                Asyncio.sleep(0.01);
            }
            Holds holds = new Holds();
            CompositeObserver.add(loop, holds);
            Future<String> result = loop.createFuture();
            long loopThread = loop.thread().threadId(); // the carrier, on either engine
            Thread.ofPlatform().name("snapshot-cost").start(() -> {
                String line;
                try {
                    line = measure(loop, loopThread, holds);
                } catch (Exception e) {
                    line = "failed: " + e;
                }
                String l = line;
                loop.callSoonThreadsafe(() -> result.setResult(l));
            });
            System.out.println(Asyncio.await(result));
            for (var t : Asyncio.allTasks()) {
                if (t != Asyncio.currentTask()) {
                    t.cancel();
                }
            }
        });
        return 0;
    }

    private String measure(EventLoop loop, long loopThread, Holds holds) throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        double[] holdMs = new double[rounds];
        double[] wallMs = new double[rounds];
        long[] alloc = new long[rounds];
        int[] slices = new int[rounds];
        double[] structureCpuMs = new double[rounds];
        double[] sliceCpuMs = new double[rounds];
        int rows = 0;
        for (int r = -5; r < rounds; r++) {
            Thread.sleep(20); // the loop idle again
            holds.longest = 0;
            holds.count = 0;
            holds.longestOtherCpu = 0;
            long allocBefore = threads.getThreadAllocatedBytes(loopThread);
            long start = System.nanoTime();
            TaskSnapshot.Taken taken = TaskSnapshot.take(loop, 0).get();
            long allocated = threads.getThreadAllocatedBytes(loopThread) - allocBefore;
            List<TaskRow> snapshot = taken.rows(); // on this thread, as the bean does
            long wall = System.nanoTime() - start;
            if (r >= 0) {
                holdMs[r] = holds.longest / 1e6;
                wallMs[r] = wall / 1e6;
                alloc[r] = allocated;
                slices[r] = holds.count;
                structureCpuMs[r] = holds.firstCpu / 1e6;
                sliceCpuMs[r] = holds.longestOtherCpu / 1e6;
                rows = snapshot.size();
            }
        }
        double[] sortedHold = holdMs.clone();
        Arrays.sort(sortedHold);
        double[] sortedWall = wallMs.clone();
        Arrays.sort(sortedWall);
        long[] sortedAlloc = alloc.clone();
        Arrays.sort(sortedAlloc);
        Arrays.sort(structureCpuMs);
        Arrays.sort(sliceCpuMs);
        return String.format(Locale.ROOT, "RESULT tasks=%d engine=%s hold_ms_p50=%.2f hold_ms_max=%.2f"
                        + " structure_cpu_ms_p50=%.2f slice_cpu_ms_p50=%.2f slices=%d"
                        + " wall_ms_p50=%.1f wall_ms_max=%.1f loop_alloc_kib=%d loop_bytes_per_task=%d cpus=%d",
                rows, System.getProperty("jasyncio.engine", "auto"), sortedHold[rounds / 2], sortedHold[rounds - 1],
                structureCpuMs[rounds / 2], sliceCpuMs[rounds / 2],
                slices[rounds / 2], sortedWall[rounds / 2], sortedWall[rounds - 1], sortedAlloc[rounds / 2] / 1024,
                rows > 0 ? sortedAlloc[rounds / 2] / rows : 0, Runtime.getRuntime().availableProcessors());
    }
}
