package io.jasyncio.task;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.task.VirtualTime.run;
import static io.jasyncio.Asyncio.shield;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
@EveryLoop
@EveryEngine
class ShieldTest {

    @Test
    void cancellingTheShieldDoesNotReachTheInnerTask() {
        run(() -> {
            Task<String> inner = createTask(() -> sleep(0.02, "inner"));
            Future<String> outer = shield(inner);
            assertTrue(outer.cancel());
            assertThrows(CancelledError.class, () -> await(outer));
            assertFalse(inner.isCancelled());
            assertEquals("inner", await(inner));
            return null;
        });
    }

    @Test
    void aDoneFutureIsItsOwnShield() {
        run(() -> {
            Task<String> t = createTask(() -> "x");
            await(t);
            assertSame(t, shield(t));
            return null;
        });
    }
}
