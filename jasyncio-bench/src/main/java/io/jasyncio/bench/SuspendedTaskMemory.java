package io.jasyncio.bench;

import io.jasyncio.Asyncio;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;
import jdk.internal.vm.Continuation;
import jdk.internal.vm.ContinuationScope;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Bytes of heap per suspended task: N tasks (default 1,000,000), heap used measured after
 * System.gc() before creating them and once all are suspended, after a warm-up run of the same
 * shape (up to 100,000 tasks) so that the suspended frames are compiled code's. Three shapes:
 * <ul>
 *   <li>{@code sleep}: each task awaits a one-hour sleep, so it counts everything a sleeping task
 *       keeps alive: the task, its continuation (stack frames), the future it awaits and the timer
 *       that will wake it (on the portable engine: its virtual thread and that thread's stack
 *       instead of the continuation);</li>
 *   <li>{@code await}: each task awaits a pending future of its own, made before the first reading,
 *       so only what the task itself holds is counted;</li>
 *   <li>{@code floor}: no jasyncio at all, N bare JDK continuations each mounted once and suspended
 *       in {@code Continuation.yield}: what {@code await} is to be compared with.</li>
 * </ul>
 * Run with bench/task-memory.sh. Prints one line: {@code RESULT tasks=N shape=S bytes_per_task=B}.
 */
public final class SuspendedTaskMemory {
    private static final int WARM_UP_TASKS = 100_000;

    private SuspendedTaskMemory() {
    }

    public static void main(String[] args) {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        String shape = args.length > 1 ? args[1] : "sleep";
        // A warm-up run of the same shape first, so the frames that freeze are compiled code's (as
        // in a service that has run a while): frozen interpreted frames are bigger, and how many
        // of the N are frozen before the JIT steps in varies run to run.
        int warmUp = Math.min(tasks, WARM_UP_TASKS);
        long bytes = switch (shape) {
            case "sleep" -> Asyncio.run(() -> {
                measureSleeping(warmUp);
                return measureSleeping(tasks);
            });
            case "await" -> Asyncio.run(() -> {
                measureAwaiting(warmUp);
                return measureAwaiting(tasks);
            });
            case "floor" -> {
                measureBareContinuations(warmUp);
                yield measureBareContinuations(tasks);
            }
            default -> throw new IllegalArgumentException("shape must be sleep, await or floor: " + shape);
        };
        System.out.printf("RESULT tasks=%d shape=%s bytes_per_task=%d%n", tasks, shape, bytes / tasks);
    }

    /** Total heap bytes held by {@code count} tasks suspended in sleep; call from inside a task. */
    static long measureSleeping(int count) {
        Task<?>[] sleepers = new Task<?>[count];   // allocated before the first reading
        long before = heapUsedAfterGc();
        for (int i = 0; i < count; i++) {
            sleepers[i] = Asyncio.createTask(() -> Asyncio.sleep(3600));
        }
        return measureSuspended(sleepers, before);
    }

    /** Total heap bytes held by {@code count} tasks each awaiting a pending future made beforehand. */
    static long measureAwaiting(int count) {
        Task<?>[] waiters = new Task<?>[count];
        @SuppressWarnings("unchecked")
        Future<Integer>[] futures = new Future[count];
        for (int i = 0; i < count; i++) {
            futures[i] = Asyncio.getRunningLoop().createFuture();
        }
        long before = heapUsedAfterGc();
        for (int i = 0; i < count; i++) {
            Future<Integer> f = futures[i];
            waiters[i] = Asyncio.createTask(() -> Asyncio.await(f));
        }
        return measureSuspended(waiters, before);
    }

    private static long measureSuspended(Task<?>[] tasks, long before) {
        Asyncio.sleep(0);                           // every task takes its first step and suspends
        for (Task<?> t : tasks) {
            if (t.isDone() || t.waitingOn() == null) {
                throw new IllegalStateException("a task is not suspended: " + t);
            }
        }
        long after = heapUsedAfterGc();
        for (Task<?> t : tasks) {
            t.cancel();
        }
        Asyncio.sleep(0);                           // let the cancellations run
        return after - before;
    }

    /**
     * Total heap bytes held by {@code count} bare continuations suspended in their first yield.
     * The continuation API is touched only here (and in {@link FloorScope}), so the other shapes
     * run on a JVM without the jdk.internal.vm export (the portable engine's).
     */
    static long measureBareContinuations(int count) {
        ContinuationScope scope = FloorScope.SCOPE;
        Continuation[] suspended = new Continuation[count];
        long before = heapUsedAfterGc();
        for (int i = 0; i < count; i++) {
            int n = i;
            suspended[i] = new Continuation(scope, () -> {
                Continuation.yield(scope);
                if (n < 0) {
                    throw new AssertionError(); // keeps n captured, as a task body keeps its state
                }
            });
            suspended[i].run();
        }
        long after = heapUsedAfterGc();
        for (Continuation c : suspended) {
            if (c.isDone()) {
                throw new IllegalStateException("a continuation is not suspended");
            }
        }
        return after - before;
    }

    /** Loaded with the first bare continuation, not with this class. */
    private static final class FloorScope {
        static final ContinuationScope SCOPE = new ContinuationScope("floor");
    }

    private static long heapUsedAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
