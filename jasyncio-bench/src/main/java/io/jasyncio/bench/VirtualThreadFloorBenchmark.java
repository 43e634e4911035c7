package io.jasyncio.bench;

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
import java.util.concurrent.locks.LockSupport;

/**
 * The floor under {@link TaskRoundTripThreadsBenchmark#roundTripOnVirtualLoopThread}: the bare
 * mechanism the portable engine is built on, with nothing of jasyncio. From a virtual "loop"
 * thread, {@value #TASKS} bodies per op, each run from a FIFO queue on a new virtual thread of its
 * own (created and started at its first step) in strict turn with the loop (a volatile turn, then
 * {@code LockSupport.unpark} of the other side and {@code park} until the turn comes back),
 * handing the turn back once mid-way, queued again and resumed to finish: four hand-offs and one
 * thread per body, as a task's round trip. No loop, no futures, no context, no executor, no
 * thread-locals, unnamed threads. Scores are per body.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH},
        jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS, JvmFlags.NATIVE_ACCESS, JvmFlags.THREADS_ENGINE})
public class VirtualThreadFloorBenchmark {
    static final int TASKS = TaskRoundTripBenchmark.TASKS;

    /** Where each body leaves its number, so no body is dead code; written only by whoever has the turn. */
    long sum;

    /** One body: its thread, and whose turn it is. */
    final class Body implements Runnable {
        static final boolean LOOP = false;
        static final boolean BODY = true;
        final int n;
        final Thread loop;
        Thread thread;
        boolean finished;
        volatile boolean turn = LOOP;

        Body(int n, Thread loop) {
            this.n = n;
            this.loop = loop;
        }

        /** On the loop: one step, until the body hands the turn back. */
        void step() {
            turn = BODY;
            if (thread == null) {
                thread = Thread.ofVirtual().unstarted(this);
                thread.start();
            } else {
                LockSupport.unpark(thread);
            }
            while (turn != LOOP) {
                LockSupport.park();
            }
        }

        @Override
        public void run() {
            handBack();
            while (turn != BODY) {
                LockSupport.park();
            }
            sum += n;
            finished = true;
            handBack();
        }

        private void handBack() {
            turn = LOOP;
            LockSupport.unpark(loop);
        }
    }

    long onLoop() {
        Thread loop = Thread.currentThread();
        ArrayDeque<Body> queue = new ArrayDeque<>(TASKS);
        sum = 0;
        for (int i = 0; i < TASKS; i++) {
            queue.add(new Body(i, loop));
        }
        Body b;
        int finished = 0;
        while ((b = queue.poll()) != null) {
            b.step();
            if (b.finished) {
                finished++;
            } else {
                queue.add(b);
            }
        }
        if (finished != TASKS) {
            throw new IllegalStateException(finished + " of " + TASKS + " bodies finished");
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public long roundTrip() throws InterruptedException {
        long[] result = new long[1];
        Thread loopThread = Thread.ofVirtual().start(() -> result[0] = onLoop());
        loopThread.join();
        return result[0];
    }
}
