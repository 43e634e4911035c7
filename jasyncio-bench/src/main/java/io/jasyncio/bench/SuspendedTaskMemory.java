package io.jasyncio.bench;

import io.jasyncio.Asyncio;
import io.jasyncio.task.Task;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Bytes of heap per suspended task: N tasks (default 1,000,000) each awaiting a one-hour sleep,
 * heap used measured after System.gc() before creating them and once all are suspended. The cost
 * counted is everything a sleeping task keeps alive: the task, its continuation (stack frames),
 * the future it awaits and the timer that will wake it (on the portable engine: its virtual thread
 * and that thread's stack instead of the continuation). Run with bench/task-memory.sh.
 *
 * <p>Prints one line: {@code RESULT tasks=N bytes_per_task=B}.
 */
public final class SuspendedTaskMemory {
    private SuspendedTaskMemory() {
    }

    public static void main(String[] args) {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        long bytes = Asyncio.run(() -> measure(tasks));
        System.out.printf("RESULT tasks=%d bytes_per_task=%d%n", tasks, bytes / tasks);
    }

    /** Total heap bytes held by {@code count} tasks suspended in sleep; call from inside a task. */
    static long measure(int count) {
        Task<?>[] sleepers = new Task<?>[count];   // allocated before the first reading
        long before = heapUsedAfterGc();
        for (int i = 0; i < count; i++) {
            sleepers[i] = Asyncio.createTask(() -> Asyncio.sleep(3600));
        }
        Asyncio.sleep(0);                           // every task takes its first step and suspends
        for (Task<?> t : sleepers) {
            if (t.isDone() || t.waitingOn() == null) {
                throw new IllegalStateException("a task is not suspended: " + t);
            }
        }
        long after = heapUsedAfterGc();
        for (Task<?> t : sleepers) {
            t.cancel();
        }
        Asyncio.sleep(0);                           // let the cancellations run
        return after - before;
    }

    private static long heapUsedAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
