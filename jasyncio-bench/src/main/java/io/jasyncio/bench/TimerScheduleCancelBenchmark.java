package io.jasyncio.bench;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.TimerHandle;
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
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * One op = schedule {@value #TIMERS} timers at random delays (1-60 s) with callLater, cancel
 * every one, then one loop iteration, which drops the cancelled handles from the heap (the
 * cleanup is part of the cost, as it is for asyncio). Scores are per timer; the Netty
 * counterpart is {@link NettyScheduleCancelBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH}, jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.VM_INTERNALS, JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS,
        JvmFlags.NATIVE_ACCESS})
public class TimerScheduleCancelBenchmark extends NioLoopState {
    static final int TIMERS = 1_000_000;
    private static final Runnable NOOP = () -> { };

    double[] delaySeconds;
    TimerHandle[] handles;

    @Setup(Level.Trial)
    public void prepareDelays() {
        long[] nanos = RandomDelays.nanos(TIMERS);
        delaySeconds = new double[TIMERS];
        for (int i = 0; i < TIMERS; i++) {
            delaySeconds[i] = nanos[i] / 1e9;
        }
        handles = new TimerHandle[TIMERS];
    }

    @Benchmark
    @OperationsPerInvocation(TIMERS)
    public void scheduleCancel() {
        EventLoop l = loop;
        TimerHandle[] hs = handles;
        double[] delays = delaySeconds;
        for (int i = 0; i < TIMERS; i++) {
            hs[i] = l.callLater(delays[i], NOOP);
        }
        for (int i = 0; i < TIMERS; i++) {
            hs[i].cancel();
            hs[i] = null;
        }
        runQueued(l);
        if (l.scheduledTimerCount() != 0) {
            throw new AssertionError("cancelled timers left in the heap: " + l.scheduledTimerCount());
        }
    }
}
