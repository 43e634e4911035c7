package io.jasyncio.lab.experiments;

import java.util.List;
import java.util.Map;

/**
 * What one experiment found: its claim, the verdict computed from its checks, the raw
 * measurements (for the JSON report), the lines it printed, and its charts.
 */
public record Result(String name, String title, String claim, Verdict verdict, String skipReason,
                     Map<String, Object> measurements, List<String> report, List<Check> checks,
                     List<Chart> charts, double seconds) {
}
