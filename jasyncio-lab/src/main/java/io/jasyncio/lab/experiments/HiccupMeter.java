package io.jasyncio.lab.experiments;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Measures how late this machine wakes a thread that only sleeps (1 ms at a time), as jHiccup
 * does. On a loaded machine every thread stalls now and then, the loop's included; this tells
 * how much of a latency the machine itself explains.
 */
final class HiccupMeter implements AutoCloseable {
    private static final long SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int MAX_SAMPLES = 1 << 16;

    private final double[] lateMs = new double[MAX_SAMPLES];
    private volatile boolean running = true;
    private int count;
    private final Thread thread = Thread.ofPlatform().daemon().name("lab-hiccup-meter").start(this::measure);

    private void measure() {
        while (running && count < MAX_SAMPLES) {
            long t0 = System.nanoTime();
            try {
                TimeUnit.NANOSECONDS.sleep(SLEEP_NANOS);
            } catch (InterruptedException e) {
                return;
            }
            lateMs[count++] = Math.max(0, System.nanoTime() - t0 - SLEEP_NANOS) / 1e6;
        }
    }

    /** Stops measuring; the worst stall seen, in ms. */
    double stopAndGetWorstMs() throws InterruptedException {
        close();
        double[] samples = Arrays.copyOf(lateMs, count);
        return Arrays.stream(samples).max().orElse(0);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5_000);
    }
}
