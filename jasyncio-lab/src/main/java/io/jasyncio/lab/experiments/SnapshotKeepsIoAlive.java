package io.jasyncio.lab.experiments;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.LoopObserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Experiment 2: a callback that reschedules itself forever cannot starve I/O, because each
 * iteration runs only the snapshot of callbacks that were ready when its drain began.
 */
final class SnapshotKeepsIoAlive implements Experiment {
    /**
     * The reader takes one byte per call, so the prefilled pipe (64 KiB on Linux) alone keeps data
     * pending for tens of thousands of iterations, whenever the writer thread gets to run.
     */
    private static final int READ_CHUNK = 1;

    @Override
    public String name() {
        return "snapshot";
    }

    @Override
    public String title() {
        return "The snapshot keeps I/O alive";
    }

    @Override
    public String claim() {
        return "A callback that reschedules itself with callSoon forever cannot starve I/O: it runs once per "
                + "iteration, and a channel that keeps receiving data is still served every iteration.";
    }

    /** Counters kept on the loop thread. */
    private static final class Counts {
        long iterations;
        long spins;
        long spinsThisIteration;
        long maxSpinsPerIteration;
        boolean readThisIteration;
        long reads;
        long bytes;
        long iterationsWithEvents;
        long iterationsWithEventsServed;
        long iterationsServed;
        boolean sawEvent;
        long longestRunWithoutRead;
        long runWithoutRead;
    }

    @Override
    public void run(Trial trial) throws Exception {
        long targetIterations = trial.size(20_000, 200_000);
        long maxNanos = (long) (trial.size(3.0, 6.0) * 1e9);
        Counts c = new Counts();
        AtomicLong written = new AtomicLong();
        EventLoop loop = EventLoops.newEventLoop();
        Pipe pipe = Pipe.open();
        Thread writer = null;
        long elapsed;
        try {
            pipe.source().configureBlocking(false);
            prefill(pipe.sink(), written);
            trial.progress("pipe prefilled with %,d bytes; a writer thread keeps topping it up", written.get());

            loop.setObserver(new LoopObserver() {
                @Override
                public void beforeSelect(long timeoutNanos, int readyCount, int timerCount) {
                    c.iterations++;
                }

                @Override
                public void afterSelect(int ioEvents, long selectNanos) {
                    c.sawEvent = ioEvents > 0;
                }

                @Override
                public void iterationFinished() {
                    c.maxSpinsPerIteration = Math.max(c.maxSpinsPerIteration, c.spinsThisIteration);
                    c.spinsThisIteration = 0;
                    if (c.sawEvent) {
                        c.iterationsWithEvents++;
                        if (c.readThisIteration) {
                            c.iterationsWithEventsServed++;
                        }
                    }
                    if (c.readThisIteration) {
                        c.iterationsServed++;
                        c.runWithoutRead = 0;
                    } else {
                        c.longestRunWithoutRead = Math.max(c.longestRunWithoutRead, ++c.runWithoutRead);
                    }
                    c.readThisIteration = false;
                }
            });

            ByteBuffer chunk = ByteBuffer.allocate(READ_CHUNK);
            loop.addReader(pipe.source(), new NamedCallback("pipe reader", () -> {
                chunk.clear();
                int n = read(pipe.source(), chunk);
                if (n > 0) {
                    c.reads++;
                    c.bytes += n;
                    c.readThisIteration = true;
                }
            }));
            long start = System.nanoTime();
            loop.callSoon(new Runnable() {
                @Override
                public void run() {
                    c.spins++;
                    c.spinsThisIteration++;
                    if (c.iterations >= targetIterations || System.nanoTime() - start > maxNanos) {
                        loop.stop();
                    } else {
                        loop.callSoon(this); // forever, as far as the loop can tell
                    }
                }
            });

            writer = startWriter(pipe.sink(), written);
            trial.progress("running a callback that reschedules itself, for %,d iterations", targetIterations);
            loop.runForever();
            elapsed = System.nanoTime() - start;
        } finally {
            loop.close();
            pipe.source().close(); // the writer's blocked write fails: it ends
            if (writer != null) {
                writer.join(10_000);
            }
            pipe.sink().close();
        }

        trial.report("iterations %,d in %.2f s; the self-rescheduling callback ran %,d times (at most %d per iteration)",
                c.iterations, elapsed / 1e9, c.spins, c.maxSpinsPerIteration);
        trial.report("the pipe reader ran %,d times, %,d bytes, in %,d of %,d iterations (%.1f%%)", c.reads, c.bytes,
                c.iterationsServed, c.iterations, 100.0 * c.iterationsServed / Math.max(1, c.iterations));
        trial.report("iterations whose select saw the pipe readable: %,d; of those, served in the same iteration: %,d",
                c.iterationsWithEvents, c.iterationsWithEventsServed);
        trial.report("longest run of iterations without a read: %,d", c.longestRunWithoutRead);
        trial.measure("iterations", c.iterations);
        trial.measure("spinnerRuns", c.spins);
        trial.measure("maxSpinnerRunsPerIteration", c.maxSpinsPerIteration);
        trial.measure("readerRuns", c.reads);
        trial.measure("bytesRead", c.bytes);
        trial.measure("iterationsServed", c.iterationsServed);
        trial.measure("iterationsWithReadiness", c.iterationsWithEvents);
        trial.measure("iterationsWithReadinessServed", c.iterationsWithEventsServed);
        trial.measure("longestRunWithoutRead", c.longestRunWithoutRead);
        trial.measure("seconds", elapsed / 1e9);

        trial.check(c.maxSpinsPerIteration == 1 && c.spins >= c.iterations - 1,
                "the self-rescheduling callback runs exactly once per iteration",
                "%,d runs in %,d iterations, at most %d in one", c.spins, c.iterations, c.maxSpinsPerIteration);
        trial.check(c.iterationsWithEvents > c.iterations / 2,
                "data kept arriving (the test is meaningful)",
                "the pipe was readable in %,d of %,d iterations", c.iterationsWithEvents, c.iterations);
        trial.check(c.iterationsWithEventsServed == c.iterationsWithEvents,
                "every iteration that saw data served it",
                "%,d of %,d", c.iterationsWithEventsServed, c.iterationsWithEvents);
    }

    /** Fills the pipe until it would block, so data is pending from the first iteration on. */
    private static void prefill(Pipe.SinkChannel sink, AtomicLong written) throws IOException {
        sink.configureBlocking(false);
        ByteBuffer block = ByteBuffer.allocate(4096);
        int n;
        while ((n = sink.write(block.clear())) > 0) {
            written.addAndGet(n);
        }
        sink.configureBlocking(true);
    }

    private static Thread startWriter(Pipe.SinkChannel sink, AtomicLong written) {
        return Thread.ofPlatform().daemon().name("lab-pipe-writer").start(() -> {
            ByteBuffer block = ByteBuffer.allocate(4096);
            try {
                while (true) {
                    written.addAndGet(sink.write(block.clear()));
                }
            } catch (IOException closed) {
                // the reading end closed: the experiment is over
            }
        });
    }

    private static int read(Pipe.SourceChannel source, ByteBuffer into) {
        try {
            return source.read(into);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
