package io.jasyncio.debug;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.task.CooperativeBudget;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(30)
@EveryEngine
class CooperativeBudgetTest {

    /**
     * A task awaits an already-done future 100 times (a cache that always hits) while a bystander
     * counts how many times it got to run meanwhile.
     */
    private static int bystanderStepsDuringAHundredCacheHits(int budget) {
        return run(() -> {
            if (budget != 0) {
                CooperativeBudget.of(getRunningLoop()).set(budget);
            }
            Future<String> cached = getRunningLoop().createFuture();
            cached.setResult("hit");
            int[] bystanderSteps = {0};
            var bystander = createTask(() -> {
                while (true) {
                    bystanderSteps[0]++;
                    sleep(0);
                }
            });
            for (int i = 0; i < 100; i++) {
                await(cached);
            }
            int seen = bystanderSteps[0];
            bystander.cancel();
            return seen;
        });
    }

    @Test
    void offByDefaultANeverSuspendingLoopNeverYields() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            assertEquals(0, CooperativeBudget.of(loop).get());
        }
        assertEquals(0, bystanderStepsDuringAHundredCacheHits(0));
    }

    @Test
    void withABudgetTheTaskYieldsOnceEveryBudgetAwaits() {
        // 100 awaits: a yield after every 10th; the bystander steps once per yield.
        assertEquals(10, bystanderStepsDuringAHundredCacheHits(10));
    }

    /** A budget is its loop's: one set on another loop (alive meanwhile) changes nothing here. */
    @Test
    void aBudgetOnOneLoopLeavesTheTasksOfAnotherAlone() {
        try (EventLoop other = EventLoops.newEventLoop()) {
            CooperativeBudget.of(other).set(10);
            assertEquals(0, bystanderStepsDuringAHundredCacheHits(0));
            assertEquals(10, CooperativeBudget.of(other).get());
            CooperativeBudget.of(other).disable();
            assertEquals(0, CooperativeBudget.of(other).get());
        }
    }
}
