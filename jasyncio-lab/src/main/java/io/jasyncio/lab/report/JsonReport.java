package io.jasyncio.lab.report;

import io.jasyncio.lab.experiments.Chart;
import io.jasyncio.lab.experiments.Check;
import io.jasyncio.lab.experiments.Result;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lab's results as JSON, written by hand (no library): {@code {"run": {date, cpus, java,
 * engine, loop, quick, version, ...}, "result": "holds"|"inconclusive"|"does not hold",
 * "experiments": [{"name", "title", "claim", "verdict", "measurements", "checks", "charts"}]}}.
 * A value that could not be measured is {@code null}, never a sentinel number; each chart comes
 * with the series it was drawn from.
 */
public final class JsonReport {
    private JsonReport() {
    }

    /** What the run was: when, where, on what, and in which mode. */
    public static Map<String, Object> runMetadata(boolean quick, String version) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("date", java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
        m.put("cpus", Runtime.getRuntime().availableProcessors());
        m.put("java", System.getProperty("java.version"));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        m.put("engine", System.getProperty("jasyncio.engine", "default"));
        m.put("loop", System.getProperty("jasyncio.loop", "nio"));
        m.put("quick", quick);
        m.put("version", version);
        return m;
    }

    /** The overall result: does not hold if any claim does not, else inconclusive if any is, else holds. */
    public static String overall(List<Result> results) {
        if (results.stream().anyMatch(r -> r.verdict() == io.jasyncio.lab.experiments.Verdict.DOES_NOT_HOLD)) {
            return io.jasyncio.lab.experiments.Verdict.DOES_NOT_HOLD.label();
        }
        if (results.stream().anyMatch(r -> r.verdict() == io.jasyncio.lab.experiments.Verdict.INCONCLUSIVE)) {
            return io.jasyncio.lab.experiments.Verdict.INCONCLUSIVE.label();
        }
        return io.jasyncio.lab.experiments.Verdict.HOLDS.label();
    }

    public static String render(List<Result> results) {
        return render(results, null);
    }

    public static String render(List<Result> results, Map<String, Object> run) {
        StringBuilder s = new StringBuilder();
        s.append("{\n");
        if (run != null) {
            s.append("  \"run\": ");
            value(s, run);
            s.append(",\n");
        }
        s.append("  \"result\": ");
        value(s, overall(results));
        s.append(",\n  \"experiments\": [");
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("name", r.name());
            e.put("title", r.title());
            e.put("claim", r.claim());
            e.put("verdict", r.verdict().label());
            if (r.skipReason() != null) {
                e.put("skipReason", r.skipReason());
            }
            e.put("seconds", r.seconds());
            e.put("measurements", r.measurements());
            e.put("checks", r.checks().stream().map(JsonReport::check).toList());
            e.put("charts", r.charts().stream().map(JsonReport::chart).toList());
            s.append(i == 0 ? "\n    " : ",\n    ");
            value(s, e);
        }
        s.append("\n  ]\n}\n");
        return s.toString();
    }

    /** A chart's kind, title, labels and every series it was drawn from. */
    private static Map<String, Object> chart(Chart chart) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("title", chart.title());
        switch (chart) {
            case Chart.Lines l -> {
                m.put("kind", "lines");
                m.put("xLabel", l.xLabel());
                m.put("yLabel", l.yLabel());
                m.put("series", l.series().stream().map(x -> Map.of("name", x.name(), "x", x.x(), "y", x.y())).toList());
            }
            case Chart.Histogram h -> {
                m.put("kind", "histogram");
                m.put("xLabel", h.xLabel());
                m.put("samples", h.samples().stream().map(x -> Map.of("name", x.name(), "values", x.values())).toList());
            }
            case Chart.Bars b -> {
                m.put("kind", "bars");
                m.put("yLabel", b.yLabel());
                m.put("categories", b.categories());
                m.put("series", b.series().stream().map(JsonReport::barSeries).toList());
            }
        }
        return m;
    }

    /** A bar series: its values, and the lowest and highest run of each when there were several. */
    private static Map<String, Object> barSeries(Chart.BarSeries series) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", series.name());
        m.put("values", series.values());
        if (series.low() != null) {
            m.put("low", series.low());
            m.put("high", series.high());
        }
        return m;
    }

    private static Map<String, Object> check(Check c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("expectation", c.expectation());
        m.put("passed", c.outcome()); // null: inconclusive
        m.put("evidence", c.evidence());
        return m;
    }

    /** Writes a string, number, boolean, null, collection, double[] or map as a JSON value. */
    public static void value(StringBuilder s, Object v) {
        switch (v) {
            case null -> s.append("null");
            case String str -> string(s, str);
            case Boolean b -> s.append(b);
            case Double d -> number(s, d);
            case Float f -> number(s, f);
            case Number n -> s.append(n.longValue());
            case double[] a -> {
                s.append('[');
                for (int i = 0; i < a.length; i++) {
                    s.append(i == 0 ? "" : ", ");
                    number(s, a[i]);
                }
                s.append(']');
            }
            case Collection<?> c -> {
                s.append('[');
                boolean first = true;
                for (Object o : c) {
                    s.append(first ? "" : ", ");
                    first = false;
                    value(s, o);
                }
                s.append(']');
            }
            case Map<?, ?> m -> {
                s.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    s.append(first ? "" : ", ");
                    first = false;
                    string(s, String.valueOf(e.getKey()));
                    s.append(": ");
                    value(s, e.getValue());
                }
                s.append('}');
            }
            default -> string(s, v.toString());
        }
    }

    private static void number(StringBuilder s, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            s.append("null"); // JSON has no NaN or infinity
        } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            s.append((long) d);
        } else {
            s.append(d);
        }
    }

    static void string(StringBuilder s, String str) {
        s.append('"');
        for (int i = 0; i < str.length(); i++) {
            char c = str.charAt(i);
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> {
                    if (c < 0x20) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        s.append('"');
    }
}
