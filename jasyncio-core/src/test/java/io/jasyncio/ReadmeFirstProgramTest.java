package io.jasyncio;

import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The README's "A first program", as written there: it must keep compiling and printing the same. */
@EveryEngine
class ReadmeFirstProgramTest {

    @Test
    @Timeout(10)
    void helloWorld() {
        String greeting = run(() -> {
            Task<String> world = createTask(() -> {
                sleep(0.1);              // suspends this task; the loop runs others
                return "world";
            });
            return "hello, " + await(world);
        });
        assertEquals("hello, world", greeting);
    }
}
