package io.jasyncio.bench;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
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
 * Netty's counterpart of {@link CallSoonDrainBenchmark}: from inside its one-thread NIO event
 * loop, {@code execute} {@value #RUNNABLES} no-op runnables and wait until the loop has run them
 * all. Scores are per runnable; the one cross-thread hand-off per op is noise at this size.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH}, jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.VM_INTERNALS, JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS,
        JvmFlags.NATIVE_ACCESS})
public class NettyExecuteBenchmark {
    static final int RUNNABLES = CallSoonDrainBenchmark.CALLBACKS;
    private static final Runnable NOOP = () -> { };

    EventLoopGroup group;
    EventLoop loop;

    @Setup(Level.Trial)
    public void openLoop() {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        loop = group.next();
    }

    @TearDown(Level.Trial)
    public void closeLoop() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Benchmark
    @OperationsPerInvocation(RUNNABLES)
    public void executeDrain() throws InterruptedException {
        EventLoop l = loop;
        CountDownLatch drained = new CountDownLatch(1);
        l.execute(() -> {
            for (int i = 0; i < RUNNABLES; i++) {
                l.execute(NOOP);
            }
            l.execute(drained::countDown);
        });
        drained.await();
    }
}
