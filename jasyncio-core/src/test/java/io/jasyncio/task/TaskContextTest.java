package io.jasyncio.task;

import io.jasyncio.context.ContextVar;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
@EveryLoop
@EveryEngine
class TaskContextTest {
    private static final ContextVar<String> REQUEST = ContextVar.withDefault("request", "none");

    @Test
    void eachTaskWorksOnACopyOfItsCreatorsContext() {
        run(() -> {
            REQUEST.set("parent");
            Task<String> a = createTask(() -> {
                String inherited = REQUEST.get();
                REQUEST.set("a");
                sleep(0.01);
                return inherited + "->" + REQUEST.get();
            });
            Task<String> b = createTask(() -> {
                String inherited = REQUEST.get();
                REQUEST.set("b");
                sleep(0.01);
                return inherited + "->" + REQUEST.get();
            });
            REQUEST.set("parent changed later");
            assertEquals("parent->a", await(a));
            assertEquals("parent->b", await(b));
            assertEquals("parent changed later", REQUEST.get(), "children's sets do not leak back");
            return null;
        });
    }

    @Test
    void combinatorsRunBodiesInTheCallingTasksContext() {
        run(() -> {
            REQUEST.set("caller");
            String seen = io.jasyncio.Asyncio.timeout(1, () -> {
                sleep(0);
                return REQUEST.get();
            });
            assertEquals("caller", seen);
            return null;
        });
    }
}
