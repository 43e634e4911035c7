package io.jasyncio.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OperationsPerInvocation;

/**
 * {@link TaskRoundTripBenchmark} on the portable task engine: each body on a virtual thread of its
 * own, in a JVM without the {@code jdk.internal.vm} export (as a user's JVM without the flag).
 * {@code roundTrip} drives the loop from the benchmark's platform thread (what a program that calls
 * {@code runUntilComplete} itself gets); {@code roundTripOnVirtualLoopThread} drives it from a
 * virtual thread, as {@code Asyncio.run} does on this engine.
 */
@Fork(value = 2, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH},
        jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS, JvmFlags.NATIVE_ACCESS, JvmFlags.THREADS_ENGINE})
public class TaskRoundTripThreadsBenchmark extends TaskRoundTripBenchmark {

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public int roundTripOnVirtualLoopThread() throws InterruptedException {
        int[] result = new int[1];
        Thread loopThread = Thread.ofVirtual().start(() -> result[0] = roundTrip());
        loopThread.join();
        return result[0];
    }
}
