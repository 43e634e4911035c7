package io.jasyncio.epoll;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.OpenFds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The poller's waiting: timeouts, wake-ups from other threads, and releasing its fds. A broken
 * wake-up must fail, never hang: selects here are bounded (3 s stands for "forever"; the loop
 * test covers the real -1), and the timeout runs tests on a thread it can abandon.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EpollPollerTest {
    private static final long LONG_NANOS = TimeUnit.SECONDS.toNanos(3);

    @Test
    void selectWaitsForItsTimeoutAndZeroDoesNotWait() throws IOException {
        try (EpollPoller poller = new EpollPoller()) {
            long start = System.nanoTime();
            assertEquals(0, poller.select(0, (r, ops) -> { }));
            long polled = System.nanoTime() - start;
            assertTrue(polled < TimeUnit.SECONDS.toNanos(1), "select(0) returned after " + polled + " ns");

            start = System.nanoTime();
            assertEquals(0, poller.select(TimeUnit.MILLISECONDS.toNanos(50), (r, ops) -> { }));
            long waited = System.nanoTime() - start;
            assertTrue(waited >= TimeUnit.MILLISECONDS.toNanos(45), "woke early: " + waited + " ns");
            assertTrue(waited < TimeUnit.SECONDS.toNanos(2), "woke late: " + waited + " ns");
        }
    }

    @Test
    void aTimerOnTheEpollLoopFiresNearItsDelay() {
        EventLoop loop = EventLoops.newEventLoop("epoll");
        try {
            Future<Long> fired = loop.createFuture();
            long start = System.nanoTime();
            loop.callLater(0.05, () -> fired.setResult(System.nanoTime() - start));
            long took = loop.runUntilComplete(fired);
            assertTrue(took >= TimeUnit.MILLISECONDS.toNanos(45), "early: " + took);
            assertTrue(took < TimeUnit.SECONDS.toNanos(2), "late: " + took);
        } finally {
            loop.close();
        }
    }

    @Test
    void aWakeupBeforeSelectMakesItReturnAtOnceAndIsConsumed() throws IOException {
        try (EpollPoller poller = new EpollPoller()) {
            poller.wakeup();
            poller.wakeup(); // deduped: still one pending wake-up
            long start = System.nanoTime();
            assertEquals(0, poller.select(LONG_NANOS, (r, ops) -> { }));
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2));
            // Consumed: the next select sleeps its whole timeout.
            start = System.nanoTime();
            poller.select(TimeUnit.MILLISECONDS.toNanos(30), (r, ops) -> { });
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(25));
            // And re-armed: a later wake-up works again.
            poller.wakeup();
            start = System.nanoTime();
            poller.select(LONG_NANOS, (r, ops) -> { });
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2));
        }
    }

    @Test
    void aWakeupFromAnotherThreadEndsALongSelect() throws Exception {
        try (EpollPoller poller = new EpollPoller()) {
            Thread waker = Thread.ofPlatform().daemon(true).start(() -> {
                sleepQuietly(50);
                poller.wakeup();
            });
            long start = System.nanoTime();
            poller.select(LONG_NANOS, (r, ops) -> { });
            long took = System.nanoTime() - start;
            waker.join();
            assertTrue(took < TimeUnit.SECONDS.toNanos(2), "took " + took);
        }
    }

    /**
     * Many threads hand callbacks to an otherwise idle loop (no timers: a lost wake-up would
     * leave it asleep forever, caught by the timeout). Half send bursts, half wait for each
     * callback before sending the next, the case where a lost wake-up shows at once.
     */
    @Test
    void noWakeupIsLostUnderManyThreads() throws Exception {
        EventLoop loop = EventLoops.newEventLoop("epoll");
        int threads = 6;
        int perThread = 3000;
        AtomicInteger ran = new AtomicInteger();
        // Daemons: a lost wake-up must fail the test, not keep the JVM alive.
        Thread loopThread = Thread.ofPlatform().daemon(true).name("epoll-loop").start(loop::runForever);
        try {
            List<Thread> senders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                boolean lockstep = t % 2 == 0;
                senders.add(Thread.ofPlatform().daemon(true).start(() -> {
                    for (int i = 0; i < perThread; i++) {
                        if (lockstep) {
                            CountDownLatch latch = new CountDownLatch(1);
                            loop.callSoonThreadsafe(() -> {
                                ran.incrementAndGet();
                                latch.countDown();
                            });
                            awaitQuietly(latch);
                        } else {
                            loop.callSoonThreadsafe(ran::incrementAndGet);
                        }
                    }
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            for (Thread s : senders) {
                s.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                assertTrue(!s.isAlive(), "a sender is stuck: a wake-up was lost");
            }
            CountDownLatch last = new CountDownLatch(1);
            loop.callSoonThreadsafe(last::countDown);
            assertTrue(last.await(2, TimeUnit.SECONDS), "the loop never woke for the last callback");
            assertEquals(threads * perThread, ran.get());
        } finally {
            loop.callSoonThreadsafe(loop::stop);
            loopThread.join(TimeUnit.SECONDS.toMillis(2));
            if (!loopThread.isAlive()) {
                loop.close();
            }
        }
    }

    @Test
    void closingLoopsReleasesTheirEpollAndEventfdFds() throws Exception {
        int loops = 20;
        int before = OpenFds.count();
        List<EventLoop> opened = new ArrayList<>();
        for (int i = 0; i < loops; i++) {
            opened.add(EventLoops.newEventLoop("epoll"));
        }
        int during = OpenFds.count();
        assertTrue(during - before >= 2 * loops - 2, "each loop holds an epoll fd and an eventfd: " + before + " -> " + during);
        for (EventLoop loop : opened) {
            loop.close();
            loop.close(); // idempotent
        }
        int after = OpenFds.count();
        assertTrue(after - before <= 2, "fds leaked: " + before + " -> " + during + " -> " + after);
        assertTrue(new File("/proc/self/fd").isDirectory());
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(2, TimeUnit.SECONDS)) {
                throw new AssertionError("callback never ran: lost wake-up");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
