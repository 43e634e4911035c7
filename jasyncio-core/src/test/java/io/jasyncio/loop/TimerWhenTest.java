package io.jasyncio.loop;

import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code when()} is exactly the deadline scheduled, as in asyncio, whatever the clock reads;
 * the loop still runs timers in nanosecond deadline order.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@EveryLoop
class TimerWhenTest {
    private static final long SEED = 20_261_201L;

    /** A clock that reads what the test sets, and otherwise behaves as the monotonic one. */
    static final class SetClock implements LoopClock {
        long now;

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public long selectTimeout(long nanosUntilNextTimer) {
            return 0; // the time moves only when the test moves it: never wait for it
        }

        @Override
        public long idle(long now, long nanosUntilNextTimer) {
            return now;
        }

        @Override
        public void blockingWorkStarted() {
        }

        @Override
        public void blockingWorkEnded() {
        }
    }

    @Test
    void whenIsExactlyTheScheduledDeadlineForAnyClockValue() throws IOException {
        Random random = new Random(SEED);
        double[] delays = {0.3, 0.1, 0.7, 1.5, 60, 1e-9, 0};
        SetClock clock = new SetClock();
        try (EventLoop loop = EventLoops.newEventLoop()) {
            loop.setClock(clock);
            for (int i = 0; i < 20_000; i++) {
                clock.now = random.nextLong(1L << 52); // up to ~52 days of System.nanoTime()
                double delay = i % 2 == 0 ? delays[i % delays.length] : random.nextDouble() * 100;
                double at = loop.time() + delay;
                assertEquals(at, loop.callLater(delay, () -> { }).when(), "callLater(" + delay + ") at " + clock.now);
                assertEquals(at, loop.callAt(at, () -> { }).when(), "callAt(" + at + ")");
                assertEquals(clock.now, loop.callAtNanos(clock.now, () -> { }).whenNanos());
            }
        }
    }

    @Test
    void timersStillRunInDeadlineOrder() throws IOException {
        Random random = new Random(SEED);
        SetClock clock = new SetClock();
        try (EventLoop loop = EventLoops.newEventLoop()) {
            loop.setClock(clock);
            clock.now = random.nextLong(1L << 52);
            double start = loop.time();
            List<TimerHandle> ran = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                TimerHandle[] self = new TimerHandle[1];
                self[0] = i % 2 == 0
                        ? loop.callAt(start + random.nextDouble(), () -> ran.add(self[0]))
                        : loop.callLater(random.nextDouble(), () -> ran.add(self[0]));
            }
            loop.callAt(start + 2, loop::stop);
            clock.now += 3_000_000_000L; // everything is due
            loop.runForever();
            assertEquals(2_000, ran.size());
            for (int i = 1; i < ran.size(); i++) {
                assertTrue(ran.get(i - 1).whenNanos() <= ran.get(i).whenNanos(), "out of order at " + i);
            }
        }
    }
}
