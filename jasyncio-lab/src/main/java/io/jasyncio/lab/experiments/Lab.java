package io.jasyncio.lab.experiments;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Runs experiments one after the other, printing each claim, its findings and its verdict. */
public final class Lab {
    private final PrintStream out;
    private final boolean quick;

    public Lab(PrintStream out, boolean quick) {
        this.out = out;
        this.quick = quick;
    }

    public List<Result> run(List<Experiment> experiments) {
        List<Result> results = new ArrayList<>();
        int i = 0;
        for (Experiment e : experiments) {
            i++;
            out.printf(Locale.ROOT, "%n[%d/%d] %s  (%s)%n", i, experiments.size(), e.title(), e.name());
            out.println("claim: " + e.claim());
            Result r = runOne(e);
            for (Check c : r.checks()) {
                out.printf(Locale.ROOT, "  [%s] %s: %s%n", c.passed() ? "ok" : "no", c.expectation(), c.evidence());
            }
            if (r.skipReason() != null) {
                out.println("  skipped because " + r.skipReason());
            }
            out.printf(Locale.ROOT, "verdict: %s  (%.1f s)%n", r.verdict().label().toUpperCase(Locale.ROOT), r.seconds());
            out.flush();
            results.add(r);
        }
        printSummary(results);
        return results;
    }

    private Result runOne(Experiment e) {
        Trial trial = new Trial(e, quick, out);
        try {
            e.run(trial);
            return trial.result();
        } catch (Throwable t) {
            out.println("  the experiment failed: " + t);
            t.printStackTrace(out);
            return trial.failed(t);
        }
    }

    private void printSummary(List<Result> results) {
        out.println();
        out.println("summary");
        for (Result r : results) {
            out.printf(Locale.ROOT, "  %-14s %-14s %s%n", r.name(), r.verdict().label(), r.title());
        }
        out.flush();
    }

    /** Zero when no verdict is "does not hold". */
    public static int exitCode(List<Result> results) {
        return results.stream().anyMatch(r -> r.verdict() == Verdict.DOES_NOT_HOLD) ? 1 : 0;
    }
}
