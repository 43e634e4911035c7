package io.jasyncio.bench;

import jdk.internal.vm.Continuation;
import jdk.internal.vm.ContinuationScope;
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

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The floor under {@link TaskRoundTripBenchmark}: the bare mechanism the continuation engine is
 * built on, with nothing of jasyncio. {@value #TASKS} JDK continuations per op, each created with
 * a body of its own (a lambda capturing its number, as the task benchmark's body does), mounted
 * from a FIFO queue, yielding once, queued again and mounted a second time to finish. No loop, no
 * futures, no context. Scores are per continuation, so a task round trip divided by this score
 * is what jasyncio costs over its mechanism.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH},
        jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.VM_INTERNALS, JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS,
        JvmFlags.NATIVE_ACCESS})
public class ContinuationFloorBenchmark {
    static final int TASKS = TaskRoundTripBenchmark.TASKS;
    static final ContinuationScope SCOPE = new ContinuationScope("floor");

    /** The FIFO the continuations are mounted from; kept across ops, as a loop keeps its ready queue. */
    private final ArrayDeque<Continuation> ready = new ArrayDeque<>();
    /** Where each body leaves its number, so no body is dead code. */
    long sum;

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public long roundTrip() {
        ArrayDeque<Continuation> queue = ready;
        sum = 0;
        for (int i = 0; i < TASKS; i++) {
            int n = i;
            queue.add(new Continuation(SCOPE, () -> {
                Continuation.yield(SCOPE);
                sum += n;
            }));
        }
        Continuation c;
        int finished = 0;
        while ((c = queue.poll()) != null) {
            c.run();
            if (c.isDone()) {
                finished++;
            } else {
                queue.add(c);
            }
        }
        if (finished != TASKS) {
            throw new IllegalStateException(finished + " of " + TASKS + " continuations finished");
        }
        return sum;
    }
}
