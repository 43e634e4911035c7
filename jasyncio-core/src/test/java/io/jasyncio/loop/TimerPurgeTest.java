package io.jasyncio.loop;

import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cancelled timers are purged lazily, with asyncio's thresholds: the heap is rebuilt only when it
 * holds more than 100 timers and more than half of them are cancelled; otherwise cancelled
 * timers leave when they reach the top. Both counts are observable.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@EveryLoop
class TimerPurgeTest {
    private static final Runnable NEVER = () -> {
        throw new AssertionError("a far timer ran");
    };

    private static List<TimerHandle> farTimers(EventLoop loop, int count) {
        List<TimerHandle> timers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            timers.add(loop.callLater(1000 + i, NEVER));
        }
        return timers;
    }

    private static void runOneIteration(EventLoop loop) {
        loop.callSoon(loop::stop);
        loop.runForever();
    }

    @Test
    void cancellingOnlyMarksAndCountsOnce() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            List<TimerHandle> timers = farTimers(loop, 10);
            timers.get(5).cancel();
            timers.get(5).cancel();
            assertEquals(10, loop.scheduledTimerCount());
            assertEquals(1, loop.cancelledTimerCount());
        }
    }

    @Test
    void noRebuildAtOneHundredTimersOrAtExactlyHalf() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            List<TimerHandle> timers = farTimers(loop, 100);
            for (int i = 40; i < 100; i++) {
                timers.get(i).cancel(); // 60 % cancelled, none at the top
            }
            runOneIteration(loop);
            assertEquals(100, loop.scheduledTimerCount(), "100 timers is not past the threshold");
            assertEquals(60, loop.cancelledTimerCount());

            loop.callLater(2000, NEVER); // 101 timers, 60 cancelled: now it trips
            runOneIteration(loop);
            assertEquals(41, loop.scheduledTimerCount());
            assertEquals(0, loop.cancelledTimerCount());
        }
        try (EventLoop loop = EventLoops.newEventLoop()) {
            List<TimerHandle> timers = farTimers(loop, 200);
            for (int i = 100; i < 200; i++) {
                timers.get(i).cancel(); // exactly half
            }
            runOneIteration(loop);
            assertEquals(200, loop.scheduledTimerCount(), "exactly half cancelled is not more than half");
            timers.get(99).cancel();
            runOneIteration(loop);
            assertEquals(99, loop.scheduledTimerCount());
            assertEquals(0, loop.cancelledTimerCount());
        }
    }

    @Test
    void cancelledTimersAtTheTopLeaveAtOnce() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            List<TimerHandle> timers = farTimers(loop, 10);
            for (int i = 0; i < 3; i++) {
                timers.get(i).cancel();
            }
            timers.get(7).cancel();
            runOneIteration(loop);
            assertEquals(7, loop.scheduledTimerCount());
            assertEquals(1, loop.cancelledTimerCount());
        }
    }

    @Test
    void cancellingATimerThatRanChangesNoCount() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            TimerHandle ran = loop.callLater(0, () -> { });
            loop.callLater(0.001, loop::stop);
            loop.runForever();
            ran.cancel();
            assertEquals(0, loop.scheduledTimerCount());
            assertEquals(0, loop.cancelledTimerCount());
        }
    }

    @Test
    void aCancelledTimerThatFallsDueBehindALiveOneLeavesTheCountToo() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            List<String> ran = new ArrayList<>();
            long when = loop.nanoTime() + 5_000_000L;
            loop.callAtNanos(when, () -> ran.add("live"));           // at the top: the top-purge stops here
            TimerHandle cancelled = loop.callAtNanos(when, () -> ran.add("cancelled"));
            cancelled.cancel();
            loop.callAtNanos(when + 5_000_000L, loop::stop);
            loop.runForever();
            assertEquals(List.of("live"), ran);
            assertEquals(0, loop.scheduledTimerCount());
            assertEquals(0, loop.cancelledTimerCount(), "the count must not outlive the timers it counts");
        }
    }

    @Test
    void aFloodOfCancelledTimersDoesNotStopOrStallTheLoop() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            for (TimerHandle h : farTimers(loop, 100_000)) {
                h.cancel();
            }
            assertEquals(100_000, loop.cancelledTimerCount());
            List<String> ran = new ArrayList<>();
            loop.callSoon(() -> ran.add("soon"));
            loop.callLater(0.05, () -> ran.add("timer"));
            loop.callLater(0.06, loop::stop);
            loop.runForever();
            assertEquals(List.of("soon", "timer"), ran);
            assertEquals(0, loop.scheduledTimerCount());
            assertEquals(0, loop.cancelledTimerCount());

            loop.callSoon(() -> ran.add("still alive"));
            runOneIteration(loop);
            assertTrue(ran.contains("still alive"));
        }
    }
}
