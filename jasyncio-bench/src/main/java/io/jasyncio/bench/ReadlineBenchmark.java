package io.jasyncio.bench;

import io.jasyncio.net.StreamReader;
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

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;

/**
 * {@link StreamReader#readline()} over an in-memory feed: a feeder task delivers {@value #LINES}
 * 64-byte lines in 16 KiB chunks (one loop turn apart, as reads from a transport arrive), and
 * the reader task reads them line by line, suspending whenever it runs dry. Scores are per line.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH}, jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.VM_INTERNALS, JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS,
        JvmFlags.NATIVE_ACCESS})
public class ReadlineBenchmark {
    static final int LINES = 20_000;
    static final int LINE_BYTES = 64;
    static final int CHUNK_BYTES = 16 * 1024;

    Runner runner;
    byte[][] chunks;

    @Setup(Level.Trial)
    public void prepare() {
        runner = new Runner(false, "nio");
        byte[] line = ("x".repeat(LINE_BYTES - 1) + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[LINES * LINE_BYTES];
        for (int i = 0; i < LINES; i++) {
            System.arraycopy(line, 0, all, i * LINE_BYTES, LINE_BYTES);
        }
        int count = (all.length + CHUNK_BYTES - 1) / CHUNK_BYTES;
        chunks = new byte[count][];
        for (int i = 0; i < count; i++) {
            chunks[i] = Arrays.copyOfRange(all, i * CHUNK_BYTES, Math.min(all.length, (i + 1) * CHUNK_BYTES));
        }
    }

    @TearDown(Level.Trial)
    public void closeRunner() {
        runner.close();
    }

    @Benchmark
    @OperationsPerInvocation(LINES)
    public long readline() throws Exception {
        return runner.run(() -> {
            StreamReader reader = new StreamReader(io.jasyncio.Asyncio.getRunningLoop());
            Task<Void> feeder = createTask(() -> {
                for (byte[] chunk : chunks) {
                    reader.feedData(chunk);
                    sleep(0);
                }
                reader.feedEof();
            });
            long lines = 0;
            while (reader.readline().length == LINE_BYTES) {
                lines++;
            }
            await(feeder);
            if (lines != LINES) {
                throw new AssertionError("read " + lines + " of " + LINES + " lines");
            }
            return lines;
        });
    }
}
