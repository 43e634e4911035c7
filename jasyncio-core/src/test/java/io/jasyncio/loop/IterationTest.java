package io.jasyncio.loop;

import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The iteration's claims, one by one, as the loop reports them through {@link LoopObserver}:
 * the ntodo snapshot, the select timeout (0, time to the nearest timer capped at one day, or
 * none), the delay checks, and done-callbacks in the order they were added. Every timer here is
 * already due or far in the future, so no result depends on the clock.
 */
@Timeout(30)
@EveryLoop
class IterationTest {
    private static final long DAY_NANOS = 24L * 3600 * 1_000_000_000L;
    private static final Runnable NOOP = () -> { };

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aCallbackAddedDuringTheDrainRunsInTheNextIteration(String loopName) {
        try (EventLoop loop = EventLoops.newEventLoop(loopName)) {
            IterationRecorder recorder = new IterationRecorder(loop);
            List<String> ran = new ArrayList<>();
            loop.callSoon(() -> {
                ran.add("a in " + recorder.iterations.size());
                loop.callSoon(() -> ran.add("b in " + recorder.iterations.size()));
            });
            assertEquals(2, recorder.runOneIteration().ntodo(), "a and the waking stop");
            assertEquals(List.of("a in 1"), ran);
            assertEquals(1, loop.readyCount(), "b waits for the next iteration");
            assertEquals(2, recorder.runOneIteration().ntodo());
            assertEquals(List.of("a in 1", "b in 2"), ran);
        }
    }

    /** The same without an observer (the loop's fast path): stop() ends the run before b. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theSnapshotHoldsOnTheUnobservedPath(String loopName) {
        try (EventLoop loop = EventLoops.newEventLoop(loopName)) {
            List<String> ran = new ArrayList<>();
            loop.callSoon(() -> {
                ran.add("a");
                loop.callSoon(() -> ran.add("b"));
                loop.stop();
            });
            loop.callSoon(() -> ran.add("c, queued before the drain"));
            loop.runForever();
            assertEquals(List.of("a", "c, queued before the drain"), ran);
            assertEquals(1, loop.readyCount());
            loop.callSoon(loop::stop);
            loop.runForever();
            assertEquals("b", ran.getLast());
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theSelectTimeoutIsZeroNoneOrTheTimeToTheNearestTimer(String loopName) {
        try (EventLoop loop = EventLoops.newEventLoop(loopName)) {
            IterationRecorder recorder = new IterationRecorder(loop);
            assertEquals(-1, recorder.runOneIteration().timeoutNanos(), "nothing to do: block until woken");

            loop.callSoon(NOOP);
            assertEquals(0, recorder.runOneIteration().timeoutNanos(), "callbacks ready");

            TimerHandle far = loop.callLater(1000, NOOP);
            long timeout = recorder.runOneIteration().timeoutNanos();
            assertTrue(timeout > 990e9 && timeout <= 1000e9, "timer in 1000 s, timeout " + timeout);

            loop.callAtNanos(loop.nanoTime() - 1_000_000_000L, NOOP);
            IterationRecorder.Iteration overdue = recorder.runOneIteration();
            assertEquals(0, overdue.timeoutNanos(), "a timer already due");
            assertEquals(1, overdue.timersMoved());
            far.cancel();
        }
    }

    /** callLater(1e10) would sleep for 317 years; asyncio caps one select at a day. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aHugeDelaySelectsForOneDayAtMost(String loopName) {
        try (EventLoop loop = EventLoops.newEventLoop(loopName)) {
            IterationRecorder recorder = new IterationRecorder(loop);
            TimerHandle huge = loop.callLater(1e10, NOOP);
            assertEquals(DAY_NANOS, recorder.runOneIteration().timeoutNanos());
            huge.cancel();
            TimerHandle infinite = loop.callLater(Double.POSITIVE_INFINITY, NOOP);
            assertEquals(DAY_NANOS, recorder.runOneIteration().timeoutNanos());
            assertTrue(infinite.whenNanos() > huge.whenNanos() - 1, "infinity is no earlier than 1e10 s");
            TimerHandle inAYear = loop.callLater(Duration.ofDays(365), NOOP);
            assertEquals(DAY_NANOS, recorder.runOneIteration().timeoutNanos());
            infinite.cancel();
            inAYear.cancel();
        }
    }

    /**
     * The huge timer must not make the loop oversleep the short one beside it (a deadline that
     * overflowed would look due, yet a day away to the select). A failure here is a timeout.
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    @Timeout(10)
    void aShortTimerBesideAHugeOneFires(String loopName) {
        try (EventLoop loop = EventLoops.newEventLoop(loopName)) {
            List<String> ran = new ArrayList<>();
            loop.callLater(1e10, () -> ran.add("huge"));
            loop.callLater(0.2, () -> {
                ran.add("short");
                loop.stop();
            });
            loop.runForever();
            assertEquals(List.of("short"), ran);
            assertEquals(1, loop.scheduledTimerCount());
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void delaysAreChecked(String loopName) {
        try (EventLoop loop = EventLoops.newEventLoop(loopName)) {
            IterationRecorder recorder = new IterationRecorder(loop);
            assertEquals("delay must be a number, not NaN",
                    assertThrows(IllegalArgumentException.class, () -> loop.callLater(Double.NaN, NOOP)).getMessage());
            assertEquals("when must be a number, not NaN",
                    assertThrows(IllegalArgumentException.class, () -> loop.callAt(Double.NaN, NOOP)).getMessage());
            assertEquals(0, loop.scheduledTimerCount(), "a refused timer is not scheduled");
            List<String> ran = new ArrayList<>();
            loop.callLater(Double.NEGATIVE_INFINITY, () -> ran.add("-inf"));
            loop.callLater(-5, () -> ran.add("-5 s"));
            loop.callLater(Duration.ZERO, () -> ran.add("Duration.ZERO"));
            assertEquals(0, recorder.runOneIteration().timeoutNanos());
            assertEquals(List.of("-inf", "-5 s", "Duration.ZERO"), ran, "past delays run at once, earliest first");
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void callLaterWithADurationIsThatManyNanosecondsAway(String loopName) {
        try (EventLoop loop = EventLoops.newEventLoop(loopName)) {
            long before = loop.nanoTime();
            TimerHandle h = loop.callLater(Duration.ofSeconds(3600, 123), NOOP);
            long after = loop.nanoTime();
            long hour = 3600_000_000_123L;
            assertTrue(h.whenNanos() >= before + hour && h.whenNanos() <= after + hour, "when " + h.whenNanos());
            assertEquals(h.whenNanos() / 1e9, h.when(), 1e-6);
        }
    }

    /** asyncio calls done-callbacks in the order they were added, each soon, in one iteration. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void doneCallbacksRunInTheOrderTheyWereAdded(String loopName) {
        try (EventLoop loop = EventLoops.newEventLoop(loopName)) {
            IterationRecorder recorder = new IterationRecorder(loop);
            Future<String> f = loop.createFuture();
            List<String> ran = new ArrayList<>();
            Consumer<Future<String>> removed = x -> ran.add("removed");
            for (int i = 1; i <= 6; i++) {
                String name = "cb" + i;
                f.addDoneCallback(x -> ran.add(name + "=" + x.result()));
                if (i == 3) {
                    f.addDoneCallback(removed);
                }
            }
            assertEquals(1, f.removeDoneCallback(removed));
            loop.callSoon(() -> f.setResult("r"));
            recorder.runOneIteration();
            assertTrue(ran.isEmpty(), "done-callbacks are scheduled, not called: " + ran);
            assertEquals(6, loop.readyCount());
            f.addDoneCallback(x -> ran.add("added after done"));
            recorder.runOneIteration();
            assertEquals(List.of("cb1=r", "cb2=r", "cb3=r", "cb4=r", "cb5=r", "cb6=r", "added after done"), ran);
            assertFalse(ran.contains("removed"));
        }
    }

    /**
     * The clock seam is read once after the wait, also when the poll brought nothing and the loop
     * asks the clock whether to jump ({@link LoopClock#idle}): that call hands back the time the
     * due timers are then moved at, instead of the loop reading the clock again.
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theClockIsReadOnceAfterTheWait(String loopName) {
        try (EventLoop loop = EventLoops.newEventLoop(loopName)) {
            CountingClock clock = new CountingClock();
            loop.setClock(clock);
            List<String> ran = new ArrayList<>();
            loop.callLater(0, () -> ran.add("due"));
            loop.callLater(0, loop::stop);
            List<Integer> readsAfterTheWait = new ArrayList<>();
            loop.setObserver(new LoopObserver() {
                int atSelect;

                @Override
                public void afterSelect(int ioEvents, long selectNanos) {
                    atSelect = clock.reads;
                }

                @Override
                public void beforeDrain(int timersMoved, int ntodo) {
                    readsAfterTheWait.add(clock.reads - atSelect);
                }
            });
            loop.runForever();
            assertEquals(List.of("due"), ran);
            assertEquals(1, clock.idles, "the poll brought nothing: the clock was asked whether to jump");
            assertEquals(List.of(1), readsAfterTheWait, "one iteration, one clock read after its wait");
        }
    }

    /** The monotonic clock, counting how often the loop reads it and calls {@link LoopClock#idle}. */
    private static final class CountingClock implements LoopClock {
        private final LoopClock real = LoopClock.monotonic();
        int reads;
        int idles;

        @Override
        public long nanoTime() {
            reads++;
            return real.nanoTime();
        }

        @Override
        public long selectTimeout(long nanosUntilNextTimer) {
            return real.selectTimeout(nanosUntilNextTimer);
        }

        @Override
        public long idle(long now, long nanosUntilNextTimer) {
            idles++;
            return real.idle(now, nanosUntilNextTimer);
        }

        @Override
        public void blockingWorkStarted() {
        }

        @Override
        public void blockingWorkEnded() {
        }
    }
}
