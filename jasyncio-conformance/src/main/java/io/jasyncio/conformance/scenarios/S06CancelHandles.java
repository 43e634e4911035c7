package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Handle;
import io.jasyncio.loop.TimerHandle;

/** Scenario 06: cancelled handles and timers never run, even from the same ready snapshot. */
public final class S06CancelHandles extends Scenario {
    private Handle victim;
    private TimerHandle t7;

    @Override
    public String name() {
        return "06_cancel_handles";
    }

    @Override
    protected void run() {
        EventLoop loop = newLoop();
        TimerHandle[] timers = new TimerHandle[6];
        for (int i = 1; i <= 5; i++) {
            timers[i] = loop.callLater(0.01 * i, label("t" + i));
        }
        timers[2].cancel();
        timers[4].cancel();
        print("t2 cancelled:", b(timers[2].isCancelled()));
        print("t4 cancelled:", b(timers[4].isCancelled()));

        loop.callSoon(() -> {
            print("canceller runs");
            victim.cancel();
        });
        victim = loop.callSoon(label("victim runs"));

        loop.callLater(0.06, () -> {
            print("t6");
            t7.cancel();
        });
        t7 = loop.callLater(0.07, label("t7"));
        loop.callLater(0.09, loop::stop);
        loop.runForever();
        print("stopped");
        timers[1].cancel();
        print("t1 cancelled after running:", b(timers[1].isCancelled()));
        loop.close();
    }

    private Runnable label(String name) {
        return () -> print(name);
    }
}
