package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.EventLoop;

/** Scenario 04: timers run in deadline order; equal deadlines in scheduling order. */
public final class S04CallLaterOrder extends Scenario {
    @Override
    public String name() {
        return "04_call_later_order";
    }

    @Override
    protected boolean onVirtualClock() {
        return true; // a 10 ms timer must not be due in the first iteration
    }

    @Override
    protected void run() {
        EventLoop loop = newLoop();
        double base = loop.time();
        loop.callAt(base + 0.03, label("c"));
        loop.callAt(base + 0.01, label("a"));
        loop.callAt(base + 0.02, label("b"));
        loop.callLater(0.3, label("L2"));
        loop.callLater(0.15, label("L1"));
        loop.callLater(0, label("zero"));
        loop.callLater(-1, label("negative"));
        loop.callSoon(label("soon"));
        loop.callLater(0.45, loop::stop);
        loop.runForever();
        print("stopped");

        double base2 = loop.time();
        loop.callAt(base2 + 0.02, label("x"));
        loop.callAt(base2 + 0.02, label("y"));
        loop.callAt(base2 + 0.05, loop::stop);
        loop.runForever();
        print("stopped");
        loop.close();
    }

    private Runnable label(String name) {
        return () -> print(name);
    }
}
