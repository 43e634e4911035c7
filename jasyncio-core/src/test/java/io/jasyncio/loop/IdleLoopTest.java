package io.jasyncio.loop;

import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * An idle loop (nothing ready, no timers) blocks in select with no timeout: it burns no CPU (under
 * 10% of one over half a second). Runs on every loop: the waiting is the poller's.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@EveryLoop
class IdleLoopTest {

    @Test
    void anIdleLoopSleepsInSelectAndUsesNoCpuUntilWoken() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx.isThreadCpuTimeSupported(), "this JVM cannot measure thread CPU time");
        if (!mx.isThreadCpuTimeEnabled()) {
            mx.setThreadCpuTimeEnabled(true);
        }
        try (LoopOnThread running = new LoopOnThread()) {
            AtomicLong lastTimeout = new AtomicLong(Long.MIN_VALUE);
            CountDownLatch blocking = new CountDownLatch(1);
            running.loop.callSoonThreadsafe(() -> running.loop.setObserver(new LoopObserver() {
                @Override
                public void beforeSelect(long timeoutNanos, int readyCount, int timerCount) {
                    lastTimeout.set(timeoutNanos);
                    if (timeoutNanos == -1) {
                        blocking.countDown();
                    }
                }
            }));
            // the observer is in, and the loop went back to select (however long a loaded machine takes)
            assertTrue(blocking.await(10, TimeUnit.SECONDS), "the idle loop never selected with no timeout: " + lastTimeout);
            long tid = running.thread.threadId();
            long cpuBefore = mx.getThreadCpuTime(tid);
            long wallBefore = System.nanoTime();
            Thread.sleep(500);
            long cpu = mx.getThreadCpuTime(tid) - cpuBefore;
            long wall = System.nanoTime() - wallBefore;

            assertEquals(-1, lastTimeout.get(), "an idle loop selects with no timeout");
            assertTrue(cpu < 50_000_000L, "idle loop used " + cpu / 1_000_000 + " ms of CPU in " + wall / 1_000_000 + " ms");
            assertTrue(running.thread.isAlive());
            assertTrue(running.loop.isRunning());
            running.stopAndJoin(Duration.ofSeconds(10)); // callSoonThreadsafe(stop) wakes it
            assertFalse(running.loop.isRunning());
        }
    }

    @Test
    void aStrayInterruptDoesNotMakeTheIdleLoopSpin() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx.isThreadCpuTimeSupported(), "this JVM cannot measure thread CPU time");
        java.util.logging.Logger loopLog = java.util.logging.Logger.getLogger("io.jasyncio.loop");
        java.util.logging.Level previous = loopLog.getLevel();
        loopLog.setLevel(java.util.logging.Level.OFF); // the loop warns about the interrupt; expected here
        try (LoopOnThread running = new LoopOnThread()) {
            AtomicBoolean interrupted = new AtomicBoolean();
            CountDownLatch observing = new CountDownLatch(1);
            CountDownLatch backInSelect = new CountDownLatch(1);
            running.loop.callSoonThreadsafe(() -> running.loop.setObserver(new LoopObserver() {
                @Override
                public void beforeSelect(long timeoutNanos, int readyCount, int timerCount) {
                    observing.countDown();
                    // set after interrupt() returned: a clear flag now means the loop saw and cleared it
                    if (interrupted.get() && !Thread.currentThread().isInterrupted()) {
                        backInSelect.countDown();
                    }
                }
            }));
            assertTrue(observing.await(10, TimeUnit.SECONDS), "the loop never went back to select");
            // (a selector returns at once while its thread's interrupt flag is set)
            running.thread.interrupt();
            interrupted.set(true);
            running.loop.callSoonThreadsafe(() -> { }); // a poller that ignores interrupts (epoll) wakes for this
            assertTrue(backInSelect.await(10, TimeUnit.SECONDS), "the loop never came back to select with its interrupt cleared");
            long tid = running.thread.threadId();
            long cpuBefore = mx.getThreadCpuTime(tid);
            Thread.sleep(500);
            long cpu = mx.getThreadCpuTime(tid) - cpuBefore;
            assertTrue(cpu < 50_000_000L, "interrupted idle loop used " + cpu / 1_000_000 + " ms of CPU in 0.5 s");
            assertTrue(running.loop.isRunning(), "an interrupt does not stop the loop: stop() does");
            running.stopAndJoin(Duration.ofSeconds(10));
        } finally {
            loopLog.setLevel(previous);
        }
    }
}
