package io.jasyncio.lab.experiments;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.LoopObserver;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Experiment 4: a loop with nothing to do blocks in select with no timeout, so its thread burns
 * no CPU. For contrast, the same loop made to wake every millisecond (the polling interval the
 * loop does not have).
 */
final class IdleLoopSleeps implements Experiment {
    @Override
    public String name() {
        return "idle";
    }

    @Override
    public String title() {
        return "An idle loop sleeps";
    }

    @Override
    public String claim() {
        return "With no ready callbacks and no timers the loop blocks in select with no timeout: there is no tick "
                + "and no polling interval, so an idle loop thread burns (about) zero CPU.";
    }

    /** CPU and iterations of a loop thread over a wall-clock window. */
    private record Window(double wallSeconds, double cpuMillis, long iterations) {
        double cpuPercent() {
            return 100 * cpuMillis / 1000 / wallSeconds;
        }
    }

    @Override
    public void run(Trial trial) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isThreadCpuTimeSupported()) {
            trial.skip("this JVM cannot measure per-thread CPU time");
            return;
        }
        threads.setThreadCpuTimeEnabled(true);
        double seconds = trial.size(1.0, 3.0);

        trial.progress("an idle loop, watched for %.1f s", seconds);
        Window idle = watch(threads, seconds, loop -> { });
        trial.progress("for contrast: the same loop woken by a 1 ms timer, for %.1f s", seconds);
        Window ticking = watch(threads, seconds, loop -> loop.callLater(0.001, new Runnable() {
            @Override
            public void run() {
                loop.callLater(0.001, this);
            }
        }));

        trial.report("idle loop:          %6.2f ms CPU over %.2f s wall (%.3f%%), %,d iterations",
                idle.cpuMillis, idle.wallSeconds, idle.cpuPercent(), idle.iterations);
        trial.report("1 ms ticking loop:  %6.2f ms CPU over %.2f s wall (%.3f%%), %,d iterations",
                ticking.cpuMillis, ticking.wallSeconds, ticking.cpuPercent(), ticking.iterations);
        trial.measure("idleCpuMs", idle.cpuMillis);
        trial.measure("idleWallSeconds", idle.wallSeconds);
        trial.measure("idleIterations", idle.iterations);
        trial.measure("tickingCpuMs", ticking.cpuMillis);
        trial.measure("tickingIterations", ticking.iterations);

        trial.check(idle.iterations <= 1, "the idle loop does not wake up",
                "%d iteration(s) started in %.1f s", idle.iterations, idle.wallSeconds);
        trial.check(idle.cpuPercent() < 1.0, "the idle loop thread burns about zero CPU",
                "%.2f ms CPU in %.1f s (%.3f%% of one core)", idle.cpuMillis, idle.wallSeconds, idle.cpuPercent());
    }

    /** Runs a loop on its own thread with {@code setup} applied, and measures it once it settled. */
    private static Window watch(ThreadMXBean threads, double seconds, Consumer<EventLoop> setup) throws Exception {
        EventLoop loop = EventLoops.newEventLoop();
        AtomicLong iterations = new AtomicLong();
        CountDownLatch started = new CountDownLatch(1);
        loop.setObserver(new LoopObserver() {
            @Override
            public void beforeSelect(long timeoutNanos, int readyCount, int timerCount) {
                iterations.incrementAndGet();
            }
        });
        setup.accept(loop);
        loop.callSoon(started::countDown);
        Thread thread = Thread.ofPlatform().name("lab-idle-loop").start(loop::runForever);
        try {
            if (!started.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the loop did not start");
            }
            Thread.sleep(100); // let it settle into its wait
            long cpu0 = threads.getThreadCpuTime(thread.threadId());
            long iterations0 = iterations.get();
            long wall0 = System.nanoTime();
            Thread.sleep((long) (seconds * 1000));
            long cpu1 = threads.getThreadCpuTime(thread.threadId());
            long iterations1 = iterations.get();
            long wall1 = System.nanoTime();
            return new Window((wall1 - wall0) / 1e9, (cpu1 - cpu0) / 1e6, iterations1 - iterations0);
        } finally {
            loop.callSoonThreadsafe(loop::stop);
            thread.join(10_000);
            loop.close();
        }
    }
}
