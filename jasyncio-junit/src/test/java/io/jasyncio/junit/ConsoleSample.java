package io.jasyncio.junit;

import io.jasyncio.Asyncio;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * An {@code @AsyncTest} for {@link ConsoleLauncherTest} to run under JUnit's console launcher (its
 * name is no test's: the build does not run it by itself).
 */
public class ConsoleSample {
    @AsyncTest
    void sleepsOnTheLoop() {
        Asyncio.sleep(0.01);
        assertNotNull(Asyncio.currentTask(), "the body runs as a task on the test's loop");
    }
}
