package io.jasyncio.bench;

import io.jasyncio.sync.Queue;
import io.jasyncio.task.Runner;
import io.jasyncio.task.Task;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;

/**
 * A producer task puts {@value #ITEMS} items through a bounded {@link Queue} (maxsize
 * {@value #MAXSIZE}) to a consumer task, so both sides suspend on backpressure and wake each
 * other, as a real pipeline does. Scores are per item (one put and one get).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH}, jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.VM_INTERNALS, JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS,
        JvmFlags.NATIVE_ACCESS})
public class QueuePutGetBenchmark {
    static final int ITEMS = 100_000;
    static final int MAXSIZE = 64;
    private static final Integer ITEM = 1;

    Runner runner;

    @Setup(Level.Trial)
    public void openRunner() {
        runner = new Runner(false, "nio");
    }

    @TearDown(Level.Trial)
    public void closeRunner() {
        runner.close();
    }

    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public long putGet() {
        return runner.run(() -> {
            Queue<Integer> queue = new Queue<>(MAXSIZE);
            Task<Void> producer = createTask(() -> {
                for (int i = 0; i < ITEMS; i++) {
                    queue.put(ITEM);
                }
            });
            long sum = 0;
            for (int i = 0; i < ITEMS; i++) {
                sum += queue.get();
            }
            await(producer);
            if (sum != ITEMS) {
                throw new AssertionError("got " + sum + " of " + ITEMS + " items");
            }
            return sum;
        });
    }
}
