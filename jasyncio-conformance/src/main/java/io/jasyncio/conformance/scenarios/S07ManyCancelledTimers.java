package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.TimerHandle;

import java.util.ArrayList;
import java.util.List;

/** Scenario 07: a flood of cancelled timers neither runs nor makes the loop wait. */
public final class S07ManyCancelledTimers extends Scenario {
    @Override
    public String name() {
        return "07_many_cancelled_timers";
    }

    @Override
    protected void run() {
        EventLoop loop = newLoop();
        List<TimerHandle> far = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            far.add(loop.callLater(1000 + i, () -> print("far timer ran")));
        }
        far.forEach(TimerHandle::cancel);

        List<Integer> recorded = new ArrayList<>();
        List<TimerHandle> near = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            int index = i;
            near.add(loop.callLater(0.0005 * i, () -> recorded.add(index)));
        }
        for (int i = 1; i < near.size(); i += 2) {
            near.get(i).cancel();
        }
        loop.callLater(0.2, loop::stop);

        double start = loop.time();
        loop.runForever();
        double elapsed = loop.time() - start;
        print("ran:", recorded.size());
        print("all even:", b(recorded.stream().allMatch(i -> i % 2 == 0)));
        print("deadline order:", b(recorded.equals(recorded.stream().sorted().toList())));
        print("finished quickly:", b(elapsed < 5.0));

        loop.callSoon(() -> print("still alive"));
        loop.callSoon(loop::stop);
        loop.runForever();
        loop.close();
    }
}
