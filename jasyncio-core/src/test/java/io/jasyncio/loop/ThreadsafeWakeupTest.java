package io.jasyncio.loop;

import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** callSoonThreadsafe from several threads wakes a loop blocked in select, and every callback runs on the loop thread. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@EveryLoop
class ThreadsafeWakeupTest {
    private static final int THREADS = 4;
    private static final int PER_THREAD = 2_000;
    private static final int ROUNDS = 20;
    /** A woken loop runs the callback in microseconds; this bound is for a loaded machine, and is all a lost wake-up costs. */
    private static final Duration WAKE_BOUND = Duration.ofSeconds(1);

    @Test
    void everyCallbackFromEveryThreadRunsOnTheLoopThread() throws Exception {
        try (LoopOnThread running = new LoopOnThread()) {
            EventLoop loop = running.loop;
            Thread.sleep(50); // let the loop settle into a blocking select
            int[] count = new int[1];                 // touched by the loop thread only
            int[] offThread = new int[1];
            long[][] lastSeen = new long[THREADS][1]; // per-thread FIFO check
            boolean[] ordered = {true};
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> submitters = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int id = t;
                submitters.add(Thread.ofPlatform().name("submitter-" + t).start(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 1; i <= PER_THREAD; i++) {
                        long seq = i;
                        loop.callSoonThreadsafe(() -> {
                            if (Thread.currentThread() != running.thread) {
                                offThread[0]++;
                            }
                            if (seq != lastSeen[id][0] + 1) {
                                ordered[0] = false;
                            }
                            lastSeen[id][0] = seq;
                            count[0]++;
                        });
                    }
                }));
            }
            go.countDown();
            for (Thread s : submitters) {
                assertTrue(s.join(Duration.ofSeconds(30)), "a submitter did not finish");
            }
            CountDownLatch seen = new CountDownLatch(1);
            int[] total = new int[1];
            loop.callSoonThreadsafe(() -> {
                total[0] = count[0];
                seen.countDown();
            });
            assertTrue(seen.await(WAKE_BOUND.toMillis(), TimeUnit.MILLISECONDS), "the loop did not run the last callback");
            running.stopAndJoin(Duration.ofSeconds(2));
            assertEquals(THREADS * PER_THREAD, total[0]);
            assertEquals(0, offThread[0]);
            assertTrue(ordered[0], "callbacks from one thread must run in submission order");
        }
    }

    /**
     * The loop is seen entering a select with no timeout (nothing else could end it), then another
     * thread hands it a callback: it runs within a bounded wait, round after round (each round
     * needs a fresh wake-up: a native loop's eventfd must be armed again after each one).
     */
    @Test
    void everyWakeUpFromAnotherThreadEndsASelectWithNoTimeout() throws Exception {
        Semaphore blockedInSelect = new Semaphore(0);
        LoopObserver watch = new LoopObserver() {
            @Override
            public void beforeSelect(long timeoutNanos, int readyCount, int timerCount) {
                if (timeoutNanos == -1) {
                    blockedInSelect.release();
                }
            }
        };
        try (LoopOnThread running = new LoopOnThread(watch)) {
            for (int round = 0; round < ROUNDS; round++) {
                assertTrue(blockedInSelect.tryAcquire(10, TimeUnit.SECONDS), "the loop never went to sleep in select");
                blockedInSelect.drainPermits();
                CountDownLatch ran = new CountDownLatch(1);
                running.loop.callSoonThreadsafe(ran::countDown);
                assertTrue(ran.await(WAKE_BOUND.toMillis(), TimeUnit.MILLISECONDS),
                        "round " + round + ": callSoonThreadsafe did not wake the loop within " + WAKE_BOUND);
            }
        }
    }
}
