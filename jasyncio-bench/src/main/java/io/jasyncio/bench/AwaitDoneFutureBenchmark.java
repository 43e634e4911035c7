package io.jasyncio.bench;

import io.jasyncio.Asyncio;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * {@code await} of a future that is already done: the fast path that must cost no more than a
 * method call (no yield, no task switch). A done future never reaches the task check, so the
 * benchmark thread can call it directly: the code path is the one a task takes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH}, jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.VM_INTERNALS, JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS,
        JvmFlags.NATIVE_ACCESS})
public class AwaitDoneFutureBenchmark {
    EventLoop loop;
    Future<String> done;

    @Setup(Level.Trial)
    public void makeDoneFuture() {
        loop = EventLoops.newEventLoop("nio");
        done = loop.createFuture();
        done.setResult("ready");
    }

    @TearDown(Level.Trial)
    public void closeLoop() {
        loop.close();
    }

    @Benchmark
    public String awaitDone() {
        return Asyncio.await(done);
    }
}
