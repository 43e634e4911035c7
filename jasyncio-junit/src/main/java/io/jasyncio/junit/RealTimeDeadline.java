package io.jasyncio.junit;

import io.jasyncio.loop.EventLoop;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A deadline in real time that runs its action on the loop ({@code callSoonThreadsafe}), for a
 * test's timeout: under {@code @AsyncTest(virtualTime = true)} the loop's own timers are virtual
 * (an hour passes in a microsecond), while the timeout must stay the real seconds it says. Like a
 * loop timer, the action runs only when the loop does: a body that blocks the loop holds it too.
 */
final class RealTimeDeadline {
    private static final ScheduledThreadPoolExecutor TIMERS = newTimers();

    private final ScheduledFuture<?> scheduled;

    private RealTimeDeadline(ScheduledFuture<?> scheduled) {
        this.scheduled = scheduled;
    }

    /** Runs {@code action} on {@code loop} once {@code seconds} of real time have passed, unless cancelled. */
    static RealTimeDeadline after(double seconds, EventLoop loop, Runnable action) {
        long nanos = (long) Math.min(seconds * 1e9, Long.MAX_VALUE / 2.0);
        return new RealTimeDeadline(TIMERS.schedule(() -> {
            try {
                loop.callSoonThreadsafe(action);
            } catch (IllegalStateException closed) {
                // the test ended and its loop closed meanwhile: nothing to time out
            }
        }, nanos, TimeUnit.NANOSECONDS));
    }

    void cancel() {
        scheduled.cancel(false);
    }

    private static ScheduledThreadPoolExecutor newTimers() {
        ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().daemon().name("jasyncio-test-deadlines").factory());
        timers.setRemoveOnCancelPolicy(true);
        // its thread now, in this class's initialisation (the JVM warming up), not lazily inside the
        // first test's step, where starting a thread on a loaded machine is reported as holding the loop
        timers.prestartCoreThread();
        return timers;
    }
}
