package io.jasyncio.bench;

import io.jasyncio.loop.EventLoop;
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

/**
 * One op = queue {@value #CALLBACKS} no-op callbacks with callSoon, then one runForever that
 * drains them all and stops. Scores are per callback (OperationsPerInvocation), the unit the
 * Netty counterpart ({@link NettyExecuteBenchmark}) reports too.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH}, jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.VM_INTERNALS, JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS,
        JvmFlags.NATIVE_ACCESS})
public class CallSoonDrainBenchmark extends NioLoopState {
    static final int CALLBACKS = 1_000_000;
    private static final Runnable NOOP = () -> { };

    @Benchmark
    @OperationsPerInvocation(CALLBACKS)
    public void callSoonDrain() {
        EventLoop l = loop;
        for (int i = 0; i < CALLBACKS; i++) {
            l.callSoon(NOOP);
        }
        runQueued(l);
    }
}
