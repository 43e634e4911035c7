package io.jasyncio.bench;

import io.jasyncio.Asyncio;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A task's whole life, {@value #TASKS} times per op: create it, its body yields once with
 * {@code sleep(0)}, finishes, and a done-callback counts it into one "all done" future (what
 * gather does, by hand, as there is no gather in this branch). Scores are per task. The same
 * shape in Node.js and CPython: bench/micro/node_task_round_trip.js, asyncio_task_round_trip.py.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH}, jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.VM_INTERNALS, JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS,
        JvmFlags.NATIVE_ACCESS})
public class TaskRoundTripBenchmark extends NioLoopState {
    static final int TASKS = 100_000;

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public int roundTrip() {
        EventLoop l = loop;
        Future<Integer> allDone = l.createFuture();
        int[] remaining = {TASKS};
        Consumer<Future<Integer>> countDone = f -> {
            if (--remaining[0] == 0) {
                allDone.setResult(TASKS);
            }
        };
        for (int i = 0; i < TASKS; i++) {
            int n = i;
            Task<Integer> task = Tasks.create(l, () -> {
                Asyncio.sleep(0);
                return n;
            }, null, null);
            task.addDoneCallback(countDone);
        }
        return l.runUntilComplete(allDone);
    }
}
