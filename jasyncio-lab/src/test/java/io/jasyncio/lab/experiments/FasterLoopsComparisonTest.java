package io.jasyncio.lab.experiments;

import io.jasyncio.loop.EventLoops;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * With two loops available, [loops] compares them instead of skipping: where only one real loop
 * runs, a second copy of it is the other. Two copies of the same
 * loop may come out either way on a busy machine, so this checks that the comparison runs and is
 * judged, not what it finds.
 */
@Tag("measured") // runs the throughput comparison: in the "measured" run, once per build
class FasterLoopsComparisonTest {
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void withTwoLoopsTheComparisonIsJudged() {
        // Where two real loops run, the lab's own run (LabCommandTest) already judges the comparison.
        assumeTrue(EventLoops.availableNames().size() < 2, "LabCommandTest compares " + EventLoops.availableNames());
        System.setProperty(SecondNioLoopProvider.PROPERTY, "true");
        try {
            assertTrue(EventLoops.availableNames().containsAll(List.of("nio", "nio-copy")), "two loops to compare");
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            List<Result> results = new Lab(new PrintStream(bytes, true, StandardCharsets.UTF_8), true)
                    .run(List.of(new FasterLoops()));
            String output = bytes.toString(StandardCharsets.UTF_8);
            Result r = results.get(0);
            assertNotEquals(Verdict.SKIPPED, r.verdict(), output);
            assertNull(r.skipReason(), output);
            assertEquals(2, r.checks().size(), output);
            assertTrue(r.measurements().containsKey("echo.nio-copy.messagesPerSecond"), output);
            assertTrue(r.measurements().containsKey("echoGain"), output);
            assertEquals(3, r.charts().size(), "one chart per workload and the relative one: " + output);
        } finally {
            System.clearProperty(SecondNioLoopProvider.PROPERTY);
        }
    }
}
