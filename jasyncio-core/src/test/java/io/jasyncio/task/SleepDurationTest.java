package io.jasyncio.task;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@EveryLoop
@EveryEngine
class SleepDurationTest {

    @Test
    void sleepForADurationWaitsAtLeastThatLong() {
        run(() -> {
            EventLoop loop = getRunningLoop();
            long start = loop.nanoTime();
            sleep(Duration.ofMillis(30));
            long slept = loop.nanoTime() - start;
            assertTrue(slept >= 30_000_000L, "woke after " + slept + " ns");
            return null;
        });
    }

    /** sleep(Duration.ZERO) is sleep(0): one yield, so two such tasks alternate. */
    @Test
    void aZeroDurationYieldsExactlyOnce() {
        List<String> order = new ArrayList<>();
        run(() -> {
            Task<Void> a = createTask(() -> {
                order.add("a1");
                sleep(Duration.ZERO);
                order.add("a2");
            });
            Task<Void> b = createTask(() -> {
                order.add("b1");
                sleep(Duration.ZERO);
                order.add("b2");
            });
            await(a);
            await(b);
            return null;
        });
        assertEquals(List.of("a1", "b1", "a2", "b2"), order);
    }
}
