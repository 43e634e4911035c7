package io.jasyncio.lab.experiments;

import io.jasyncio.lab.terminal.Terminal;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The notebook of one experiment run: it prints progress and findings as they come, and keeps
 * the measurements, checks and charts the verdict and the reports are made from. Methods may be
 * called from helper threads.
 */
public final class Trial {
    private final Experiment experiment;
    private final boolean quick;
    private final PrintStream out;
    private final long startNanos = System.nanoTime();
    private final Map<String, Object> measurements = new LinkedHashMap<>();
    private final List<String> report = new ArrayList<>();
    private final List<Check> checks = new ArrayList<>();
    private final List<Chart> charts = new ArrayList<>();
    private String skipReason;

    public Trial(Experiment experiment, boolean quick, PrintStream out) {
        this.experiment = experiment;
        this.quick = quick;
        this.out = out;
    }

    /** True for the small sizes the tests use. */
    public boolean quick() {
        return quick;
    }

    /** Picks the size for this run: {@code quick} in quick mode, else {@code full}. */
    public int size(int quickSize, int fullSize) {
        return quick ? quickSize : fullSize;
    }

    public double size(double quickSize, double fullSize) {
        return quick ? quickSize : fullSize;
    }

    /** Says what is happening now, with the time since the experiment started. */
    public synchronized void progress(String format, Object... args) {
        Terminal.wrap(String.format(Locale.ROOT, "... %5.1fs  %s", elapsedSeconds(), String.format(Locale.ROOT, format,
                args)), "  ", "               ").forEach(out::println);
        out.flush();
    }

    /** A finding, printed now and kept for the HTML report. */
    public synchronized void report(String format, Object... args) {
        String line = String.format(Locale.ROOT, format, args);
        report.add(line);
        Terminal.wrap(line, "  ", "      ").forEach(out::println);
        out.flush();
    }

    /** A raw measurement for the JSON report: a number, a string, a boolean, or a list of those. */
    public synchronized void measure(String key, Object value) {
        measurements.put(key, value);
    }

    /** A condition the verdict depends on. */
    public synchronized boolean check(boolean passed, String expectation, String evidenceFormat, Object... args) {
        checks.add(new Check(expectation, passed, String.format(Locale.ROOT, evidenceFormat, args)));
        return passed;
    }

    public synchronized void chart(Chart chart) {
        charts.add(chart);
    }

    /**
     * A condition the measurements cannot decide: what it looked for was within the noise stated in
     * {@code evidence}. The verdict is then "inconclusive", unless another check failed.
     */
    public synchronized void inconclusive(String expectation, String evidenceFormat, Object... args) {
        checks.add(new Check(expectation, false, String.format(Locale.ROOT, evidenceFormat, args), true));
    }

    /** The claim cannot be judged here (e.g. only one loop to compare): the verdict is "skipped". */
    public synchronized void skip(String reason) {
        this.skipReason = reason;
    }

    double elapsedSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /**
     * The verdict: skipped if asked; else does not hold when a check failed (or there were none),
     * inconclusive when a check could not tell, and holds only when every check passed.
     */
    synchronized Result result() {
        Verdict verdict;
        if (skipReason != null) {
            verdict = Verdict.SKIPPED;
        } else if (checks.isEmpty() || checks.stream().anyMatch(c -> !c.passed() && !c.inconclusive())) {
            verdict = Verdict.DOES_NOT_HOLD;
        } else if (checks.stream().anyMatch(Check::inconclusive)) {
            verdict = Verdict.INCONCLUSIVE;
        } else {
            verdict = Verdict.HOLDS;
        }
        return new Result(experiment.name(), experiment.title(), experiment.claim(), verdict, skipReason,
                new LinkedHashMap<>(measurements), List.copyOf(report), List.copyOf(checks), List.copyOf(charts),
                elapsedSeconds());
    }

    /** The same verdict, for an experiment that failed with an exception. */
    synchronized Result failed(Throwable error) {
        checks.add(new Check("the experiment runs to the end", false, error.toString()));
        return result();
    }
}
