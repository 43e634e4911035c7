package io.jasyncio.lab;

import io.jasyncio.lab.experiments.Chart;
import io.jasyncio.lab.experiments.Check;
import io.jasyncio.lab.experiments.Result;
import io.jasyncio.lab.experiments.Verdict;
import io.jasyncio.lab.report.HtmlReport;
import io.jasyncio.lab.report.JsonReport;
import io.jasyncio.lab.terminal.Terminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lab's reports without running experiments: made-up results, checked for what a reader relies on. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class LabReportsTest {
    /** Results with every kind of chart, a long unbroken line, and an inconclusive check. */
    static List<Result> sample() {
        double[] t = {0, 100, 200, 300, 400};
        double[] gaps = {5, 5, 800, 5, 6};
        double[] latencies = new double[200];
        for (int i = 0; i < latencies.length; i++) {
            latencies[i] = i < 196 ? 0.3 + i * 0.001 : 195;
        }
        List<Chart> charts = List.of(
                new Chart.Lines("Heartbeat gaps", "time (ms)", "gap (ms)", List.of(new Chart.Series("storm", t, gaps)),
                        Chart.Shape.HELD_BEFORE, true),
                new Chart.Lines("Heap", "% cancelled", "timers", List.of(new Chart.Series("in the heap",
                        new double[]{0, 50, 60}, new double[]{1000, 1000, 400})), Chart.Shape.HELD_AFTER, false),
                new Chart.Histogram("Latency", "ms", List.of(new Chart.Samples("on the loop", latencies))),
                new Chart.Bars("Throughput", "messages/s", List.of("nio", "epoll"),
                        List.of(new Chart.BarSeries("echo", new double[]{1000, 1100}, new double[]{900, 950},
                                new double[]{1150, 1200}))));
        Map<String, Object> measurements = new LinkedHashMap<>();
        measurements.put("idleSleepMs", null);
        String longLine = "at " + "io.jasyncio.lab.experiments.AVeryLongClassName.".repeat(6) + "method(File.java:1)";
        return List.of(new Result("loops", "Where a faster loop helps", "a claim", Verdict.INCONCLUSIVE, null,
                measurements, List.of("a table row", longLine,
                        "iteration   timeout chosen   I/O events   timers moved   ntodo   callbacks run   anatomy of the turn",
                        "        1          0.000 s            2              0       3               3   first turn"),
                List.of(new Check("compared", false,
                "nio is 1.04x epoll (runs spread 1.20x)", true)), charts, 1.0));
    }

    @Test
    void theJsonSaysWhatRanTheOverallResultAndTheSeriesBehindEachChart() {
        @SuppressWarnings("unchecked")
        Map<String, Object> root = (Map<String, Object>) TinyJson.parse(
                JsonReport.render(sample(), JsonReport.runMetadata(true, "0.1.0")));
        @SuppressWarnings("unchecked")
        Map<String, Object> run = (Map<String, Object>) root.get("run");
        for (String key : List.of("date", "cpus", "java", "engine", "loop", "quick", "version")) {
            assertTrue(run.containsKey(key), "run metadata has " + key + ": " + run);
        }
        assertEquals("inconclusive", root.get("result"));
        @SuppressWarnings("unchecked")
        Map<String, Object> e = ((List<Map<String, Object>>) root.get("experiments")).getFirst();
        @SuppressWarnings("unchecked")
        Map<String, Object> check = ((List<Map<String, Object>>) e.get("checks")).getFirst();
        assertNull(check.get("passed"), "an inconclusive check is null, neither true nor false");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> charts = (List<Map<String, Object>>) e.get("charts");
        assertEquals(4, charts.size());
        @SuppressWarnings("unchecked")
        Map<String, Object> series = ((List<Map<String, Object>>) charts.getFirst().get("series")).getFirst();
        assertEquals(List.of(5.0, 5.0, 800.0, 5.0, 6.0), series.get("y"));
        assertTrue(((Map<?, ?>) e.get("measurements")).containsKey("idleSleepMs"));
        assertNull(((Map<?, ?>) e.get("measurements")).get("idleSleepMs"));
    }

    @Test
    void theHtmlReadsOnANarrowScreenAndMarksWhatMatters() {
        String page = HtmlReport.render(sample(), true);
        assertTrue(page.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"));
        assertTrue(page.contains("white-space: pre; overflow-x: auto"), "preformatted tables keep their lines and scroll");
        assertEquals(2, page.split("class=\"spread\"", -1).length - 1, "each bar measured over runs has its spread");
        assertTrue(page.contains("<title>lowest 900, highest 1150</title>"), page);
        assertTrue(page.contains("(log scale)"), "heartbeat gaps on a log axis");
        assertTrue(page.contains(">p50 ") && page.contains(">p99 "), "percentiles marked on the histogram");
        assertTrue(page.contains("verdict inconclusive"), "the third verdict has its badge");
    }

    @Test
    void terminalLinesFitOneHundredColumns() {
        String text = "word ".repeat(60) + "x".repeat(250);
        List<String> lines = Terminal.wrap(text, "  ", "      ");
        for (String line : lines) {
            assertTrue(line.length() <= Terminal.WIDTH, line.length() + ": " + line);
        }
        assertEquals(text.replace(" ", ""), String.join("", lines).replace(" ", ""), "nothing lost");
        assertEquals(List.of("  a  short   table row"), Terminal.wrap("a  short   table row", "  ", "    "));
    }

    @Test
    void aReportPathThatCannotBeWrittenFailsBeforeAnythingRuns(@TempDir Path dir) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long start = System.nanoTime();
        StandardError run = StandardError.capture(() -> new CommandLine(new LabCommand(new PrintStream(bytes))).execute("--quick", "--json",
                dir.resolve("missing/dir/lab.json").toString()));
        assertEquals(2, run.exitCode());
        assertTrue(run.text().contains("jasyncio lab: --json ") && run.text().contains(": no such directory "), run.text());
        assertTrue(bytes.toString().isEmpty(), "no experiment ran: " + bytes);
        assertTrue((System.nanoTime() - start) / 1e9 < 5, "refused at once");
    }
}
