package io.jasyncio.debug;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

@SuppressWarnings("try") // resources held for their scope, not used by name
@Timeout(30)
class LoopStatsTest {

    @Test
    void countsIterationsCallbacksTimersAndTheLagABlockingCallbackCauses() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            LoopStats stats = LoopStats.install(loop);
            for (int i = 0; i < 5; i++) {
                loop.callSoon(() -> { });
            }
            loop.callLater(0.01, () -> { });      // on time: the loop is idle until then
            loop.callLater(0.02, () -> sleepOnTheLoop(0.2)); // slow, and holds up the next timer
            loop.callLater(0.03, () -> { });      // runs ~0.19 s late
            loop.callLater(5, () -> { }).cancel();
            loop.callLater(0.3, loop::stop);
            loop.runForever();

            LoopStats.Snapshot s = stats.snapshot();
            assertTrue(s.iterations() >= 2, s.toString()); // due timers may share an iteration on a busy machine
            assertTrue(s.lagP50Nanos() <= s.lagP90Nanos() && s.lagP90Nanos() <= s.lagP99Nanos() && s.lagP99Nanos() <= s.lagMaxNanos(), s.toString());
            assertEquals(5 + 4, s.handlesRun(), s.toString());
            assertEquals(4, s.timersFired(), s.toString());
            assertEquals(4, s.lagSamples(), s.toString());
            assertEquals(1, s.slowCallbacks(), s.toString());
            assertTrue(s.readyMax() >= 5, s.toString());
            assertTrue(s.lagMaxNanos() > 150_000_000L, "the timer behind the blocking one was late: " + s);
            assertTrue(s.lagP50Nanos() < 150_000_000L, "most timers were on time: " + s);
            assertTrue(s.callbackNanos() >= 190_000_000L, s.toString());
            assertTrue(s.selectNanos() > 0, s.toString());
            assertEquals(2, s.timersInHeap(), "before the last select: the stop timer and the cancelled 5 s one: " + s);
            assertEquals(1, s.cancelledTimersInHeap(), s.toString());
        }
    }

    @Test
    void statsWatchdogAndJfrEventsShareTheSingleObserverSlot() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            LoopStats stats = LoopStats.install(loop);
            assertSame(stats, loop.getObserver());
            SlowCallbackEvents jfr = new SlowCallbackEvents(loop);
            CompositeObserver.add(loop, jfr);
            try (Watchdog watchdog = Watchdog.install(loop, 1, null)) {
                CompositeObserver all = (CompositeObserver) loop.getObserver();
                assertEquals(3, all.observers().size());
                loop.callSoon(loop::stop);
                loop.runForever();
                assertEquals(1, stats.snapshot().handlesRun(), "stats still count next to the others");
            }
            assertEquals(2, ((CompositeObserver) loop.getObserver()).observers().size());
            CompositeObserver.remove(loop, jfr);
            assertSame(stats, loop.getObserver());
        }
    }

    private static void sleepOnTheLoop(double seconds) {
        try {
            Thread.sleep((long) (seconds * 1000));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
