package io.jasyncio.bench;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.ScheduledFuture;
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

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Netty's counterpart of {@link TimerScheduleCancelBenchmark}: from inside its one-thread NIO
 * event loop, {@code schedule} {@value #TIMERS} runnables at the same random delays, then
 * {@code cancel} every one (inside the loop Netty removes a cancelled task from its queue at
 * once). Scores are per timer.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH}, jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.VM_INTERNALS, JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS,
        JvmFlags.NATIVE_ACCESS})
public class NettyScheduleCancelBenchmark {
    static final int TIMERS = TimerScheduleCancelBenchmark.TIMERS;
    private static final Runnable NOOP = () -> { };

    EventLoopGroup group;
    EventLoop loop;
    long[] delayNanos;
    ScheduledFuture<?>[] futures;

    @Setup(Level.Trial)
    public void openLoop() {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        loop = group.next();
        delayNanos = RandomDelays.nanos(TIMERS);
        futures = new ScheduledFuture<?>[TIMERS];
    }

    @TearDown(Level.Trial)
    public void closeLoop() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Benchmark
    @OperationsPerInvocation(TIMERS)
    public void scheduleCancel() throws InterruptedException {
        EventLoop l = loop;
        ScheduledFuture<?>[] fs = futures;
        long[] delays = delayNanos;
        CountDownLatch done = new CountDownLatch(1);
        l.execute(() -> {
            for (int i = 0; i < TIMERS; i++) {
                fs[i] = l.schedule(NOOP, delays[i], TimeUnit.NANOSECONDS);
            }
            for (int i = 0; i < TIMERS; i++) {
                fs[i].cancel(false);
                fs[i] = null;
            }
            done.countDown();
        });
        done.await();
    }
}
