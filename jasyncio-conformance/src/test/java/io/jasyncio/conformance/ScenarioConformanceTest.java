package io.jasyncio.conformance;

import io.jasyncio.loop.LoopsUnderTest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Every ported scenario on every loop under test ({@link LoopsUnderTest#names()}: here nio, epoll
 * and, where the kernel sets up a ring, io_uring, in this one JVM), compared byte for byte with the trace CPython printed (copied from
 * shared/scenarios into this module's test resources).
 */
class ScenarioConformanceTest {
    private static final Duration SCENARIO_TIMEOUT = Duration.ofSeconds(60);

    @TestFactory
    List<DynamicTest> everyScenarioOnEveryLoop() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String loop : LoopsUnderTest.names()) {
            for (Scenario scenario : Scenarios.all()) {
                tests.add(DynamicTest.dynamicTest(scenario.name() + " on " + loop, () -> {
                    String expected = expected(scenario.name());
                    // A dynamic test gets no @Timeout: a scenario that hangs fails here instead.
                    String actual = assertTimeoutPreemptively(SCENARIO_TIMEOUT, () -> scenario.runCapturing(loop),
                            () -> scenario.name() + " on the " + loop + " loop did not finish in " + SCENARIO_TIMEOUT);
                    assertEquals(expected, actual, "trace of " + scenario.name() + " on the " + loop + " loop");
                }));
            }
        }
        return tests;
    }

    static String expected(String name) throws IOException {
        try (InputStream in = ScenarioConformanceTest.class.getResourceAsStream("/scenarios/" + name + ".out")) {
            assertNotNull(in, "no expected trace for " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
