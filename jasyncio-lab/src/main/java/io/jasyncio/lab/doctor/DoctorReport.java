package io.jasyncio.lab.doctor;

import io.jasyncio.lab.doctor.DoctorRecording.Beat;
import io.jasyncio.lab.doctor.DoctorRecording.Loop;
import io.jasyncio.lab.doctor.DoctorRecording.Sample;
import io.jasyncio.lab.doctor.DoctorRecording.Totals;
import io.jasyncio.lab.experiments.Chart;
import io.jasyncio.lab.report.HtmlReport;
import io.jasyncio.lab.report.JsonReport;
import io.jasyncio.lab.terminal.Terminal;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The doctor's findings as terminal text, JSON and a self-contained HTML page. */
public final class DoctorReport {
    /** Notes (holds not diagnosed: warm-up, the machine) printed in full; the rest are counted. */
    private static final int SHOWN_NOTES = 2;
    private DoctorReport() {
    }

    // ---- terminal ------------------------------------------------------------------------------

    public static void print(PrintStream out, DoctorRecording recording, Diagnoses.Reading reading) {
        if (!recording.ended()) {
            out.println(Terminal.colour(33, "the program ended without the doctor's last record "
                    + "(killed?): the report covers what was written until then"));
        }
        if (recording.loops().isEmpty()) {
            out.println("no jasyncio loop was created: nothing to examine (is the program a jasyncio program, "
                    + "and was -Djasyncio.doctor passed to its JVM?)");
            return;
        }
        for (Loop loop : recording.loops()) {
            for (String line : summary(loop)) {
                Terminal.wrap(line, line.startsWith("loop") ? "" : "  ", "    ").forEach(out::println);
            }
        }
        for (String note : reading.notes().subList(0, Math.min(SHOWN_NOTES, reading.notes().size()))) {
            Terminal.wrap("note: " + note, "", "      ").forEach(out::println);
        }
        if (reading.notes().size() > SHOWN_NOTES) {
            int more = reading.notes().size() - SHOWN_NOTES;
            out.println("(" + more + " more note" + (more == 1 ? "" : "s") + ", not diagnoses: all are in --json and --html)");
        }
        out.println();
        if (reading.diagnoses().isEmpty()) {
            out.println(Terminal.colour(32, "no diagnosis: nothing held the loop, no await storm, no pile of cancelled "
                    + "timers, no lost exception"));
            return;
        }
        out.println(Terminal.colour(31, reading.diagnoses().size() + " diagnos" + (reading.diagnoses().size() == 1 ? "is" : "es")));
        int n = 1;
        for (Diagnosis d : reading.diagnoses()) {
            String head = "[" + n++ + "] " + d.kind() + " (loop '" + d.loop() + "'): ";
            Terminal.wrap(head + d.finding(), "", "    ").forEach(l -> out.println(l.startsWith("[") ? Terminal.colour(1, l) : l));
            Terminal.wrap("cure: " + d.cure(), "    ", "          ").forEach(out::println);
            for (String e : d.evidence()) {
                Terminal.wrap(e, "    | ", "    |   ").forEach(out::println);
            }
        }
    }

    /** The loop's vital signs, a few lines. */
    static List<String> summary(Loop loop) {
        List<String> lines = new ArrayList<>();
        Totals t = loop.totals();
        double[] lags = loop.beats().stream().mapToDouble(Beat::lagMillis).sorted().toArray();
        int readyMax = loop.samples().stream().mapToInt(Sample::readyMax).max().orElse(0);
        int pendingMax = loop.samples().stream().mapToInt(Sample::pendingTasks).max().orElse(0);
        int queueMax = loop.samples().stream().mapToInt(Sample::executorQueue).max().orElse(0);
        if (t != null) {
            double busy = t.selectNanos() + t.callbackNanos();
            lines.add(String.format(Locale.ROOT, "loop '%s' (%s): %,d iterations, %.0f%% of its time in select, "
                            + "%.0f%% running callbacks (%,d handles)", loop.thread(), loop.type(), t.iterations(),
                    busy > 0 ? 100 * t.selectNanos() / busy : 0, busy > 0 ? 100 * t.callbackNanos() / busy : 0, t.handles()));
            lines.add(String.format(Locale.ROOT, "timers: %,d scheduled, %,d cancelled, %,d fired; %d slow step(s) "
                    + "(100 ms or more)", t.timersScheduled(), t.timersCancelled(), t.timersFired(), t.slowSteps()));
        } else {
            lines.add(String.format(Locale.ROOT, "loop '%s' (%s): no totals (the program ended abruptly)", loop.thread(),
                    loop.type()));
        }
        lines.add(lags.length == 0 ? "heartbeat: none ran (the loop never ran long enough)" : String.format(Locale.ROOT,
                "heartbeat lag (every 50 ms): p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d beats; ready queue up to %d, "
                        + "pending tasks up to %d, executor queue up to %d", percentile(lags, 50), percentile(lags, 99),
                lags[lags.length - 1], lags.length, readyMax, pendingMax, queueMax));
        return lines;
    }

    private static double percentile(double[] sorted, double p) {
        return HtmlReport.percentile(sorted, p);
    }

    // ---- JSON ----------------------------------------------------------------------------------

    public static String json(DoctorRecording recording, Diagnoses.Reading reading) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("command", recording.command());
        root.put("ended", recording.ended());
        root.put("healthy", reading.diagnoses().isEmpty());
        root.put("diagnoses", reading.diagnoses().stream().map(d -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("kind", d.kind());
            m.put("loop", d.loop());
            m.put("finding", d.finding());
            m.put("cure", d.cure());
            m.put("evidence", d.evidence());
            return m;
        }).toList());
        root.put("notes", reading.notes());
        root.put("loops", recording.loops().stream().map(DoctorReport::loopJson).toList());
        StringBuilder s = new StringBuilder();
        JsonReport.value(s, root);
        return s.append('\n').toString();
    }

    private static Map<String, Object> loopJson(Loop loop) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("thread", loop.thread());
        m.put("type", loop.type());
        Totals t = loop.totals();
        if (t != null) {
            Map<String, Object> totals = new LinkedHashMap<>();
            totals.put("iterations", t.iterations());
            totals.put("selectSeconds", t.selectNanos() / 1e9);
            totals.put("callbackSeconds", t.callbackNanos() / 1e9);
            totals.put("handles", t.handles());
            totals.put("readyMax", t.readyMax());
            totals.put("timersScheduled", t.timersScheduled());
            totals.put("timersCancelled", t.timersCancelled());
            totals.put("timersFired", t.timersFired());
            totals.put("slowSteps", t.slowSteps());
            m.put("totals", totals);
        } else {
            m.put("totals", null);
        }
        m.put("heartbeat", Map.of("atMs", loop.beats().stream().mapToDouble(Beat::at).toArray(),
                "lagMs", loop.beats().stream().mapToDouble(Beat::lagMillis).toArray()));
        Map<String, Object> samples = new LinkedHashMap<>();
        samples.put("atMs", loop.samples().stream().mapToDouble(Sample::at).toArray());
        samples.put("readyMax", loop.samples().stream().mapToDouble(Sample::readyMax).toArray());
        samples.put("timersInHeap", loop.samples().stream().mapToDouble(Sample::heap).toArray());
        samples.put("cancelledInHeap", loop.samples().stream().mapToDouble(Sample::cancelled).toArray());
        samples.put("pendingTasks", loop.samples().stream().mapToDouble(Sample::pendingTasks).toArray());
        samples.put("executorQueue", loop.samples().stream().mapToDouble(Sample::executorQueue).toArray());
        m.put("samples", samples);
        m.put("slowSteps", loop.slowSteps().stream().map(s -> Map.of("atMs", s.at(), "ms", s.millis(),
                "awaitsWithoutYield", s.awaits(), "task", s.task())).toList());
        m.put("purges", loop.purges().stream().map(p -> Map.of("atMs", p.at(), "removed", p.removed(),
                "heapBefore", p.heapBefore(), "ms", p.millis())).toList());
        return m;
    }

    // ---- HTML ----------------------------------------------------------------------------------

    public static String html(DoctorRecording recording, Diagnoses.Reading reading) {
        StringBuilder body = new StringBuilder();
        body.append("<p class=\"meta\">").append(HtmlReport.escape(recording.command())).append("</p>\n");
        body.append("<h2>Diagnoses</h2>\n");
        if (reading.diagnoses().isEmpty()) {
            body.append("<p>No diagnosis: nothing held the loop, no await storm, no pile of cancelled timers, "
                    + "no lost exception.</p>\n");
        }
        for (Diagnosis d : reading.diagnoses()) {
            body.append("<div class=\"diagnosis\"><h3>").append(HtmlReport.escape(d.kind())).append(" <small>loop '")
                    .append(HtmlReport.escape(d.loop())).append("'</small></h3>\n<p>").append(HtmlReport.escape(d.finding()))
                    .append("</p>\n<p><b>cure:</b> ").append(HtmlReport.escape(d.cure())).append("</p>\n");
            if (!d.evidence().isEmpty()) {
                body.append("<pre>").append(HtmlReport.escape(String.join("\n", d.evidence()))).append("</pre>\n");
            }
            body.append("</div>\n");
        }
        for (String note : reading.notes()) {
            body.append("<p class=\"meta\">note: ").append(HtmlReport.escape(note)).append("</p>\n");
        }
        for (Loop loop : recording.loops()) {
            body.append("<h2>Loop '").append(HtmlReport.escape(loop.thread())).append("'</h2>\n<pre>")
                    .append(HtmlReport.escape(String.join("\n", summary(loop)))).append("</pre>\n");
            double[] beatAt = loop.beats().stream().mapToDouble(b -> b.at() / 1000).toArray();
            double[] lag = loop.beats().stream().mapToDouble(Beat::lagMillis).toArray();
            body.append(HtmlReport.chart(new Chart.Lines("Heartbeat lag: how long a callback posted every 50 ms "
                    + "waited to run", "time (s)", "lag (ms)", List.of(new Chart.Series("lag", beatAt, lag)),
                    Chart.Shape.LINE, true)));
            double[] at = loop.samples().stream().mapToDouble(s -> s.at() / 1000).toArray();
            body.append(HtmlReport.chart(new Chart.Lines("Timer heap (largest share cancelled in each 250 ms)",
                    "time (s)", "timers", List.of(
                    new Chart.Series("in the heap", at, loop.samples().stream().mapToDouble(Sample::peakHeap).toArray()),
                    new Chart.Series("cancelled, still in the heap", at,
                            loop.samples().stream().mapToDouble(Sample::peakCancelled).toArray())),
                    Chart.Shape.HELD_AFTER, false)));
            body.append(HtmlReport.chart(new Chart.Lines("Ready queue and tasks (largest in each 250 ms)", "time (s)",
                    "count", List.of(
                    new Chart.Series("ready queue", at, loop.samples().stream().mapToDouble(Sample::readyMax).toArray()),
                    new Chart.Series("pending tasks", at, loop.samples().stream().mapToDouble(Sample::pendingTasks).toArray()),
                    new Chart.Series("executor queue", at,
                            loop.samples().stream().mapToDouble(Sample::executorQueue).toArray())))));
        }
        return HtmlReport.page("jasyncio doctor", body.toString());
    }
}
