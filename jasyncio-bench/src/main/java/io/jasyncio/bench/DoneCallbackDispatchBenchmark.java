package io.jasyncio.bench;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
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
 * A future's done-callback, {@value #FUTURES} times per op: create a future, add one callback,
 * set the result (which schedules the callback with callSoon, as asyncio does), and let the loop
 * run them all. Scores are per future.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH}, jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.VM_INTERNALS, JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS,
        JvmFlags.NATIVE_ACCESS})
public class DoneCallbackDispatchBenchmark extends NioLoopState {
    static final int FUTURES = 100_000;

    long seen;
    private final Consumer<Future<Integer>> onDone = f -> seen += f.result();

    @Benchmark
    @OperationsPerInvocation(FUTURES)
    public long dispatch() {
        EventLoop l = loop;
        long before = seen;
        for (int i = 0; i < FUTURES; i++) {
            Future<Integer> f = l.createFuture();
            f.addDoneCallback(onDone);
            f.setResult(1);
        }
        runQueued(l);
        if (seen - before != FUTURES) {
            throw new AssertionError("ran " + (seen - before) + " of " + FUTURES + " done-callbacks");
        }
        return seen;
    }
}
