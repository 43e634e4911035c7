package io.jasyncio.lab.experiments;

import io.jasyncio.lab.terminal.Terminal;

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
            out.println();
            out.println(Terminal.colour(1, String.format(Locale.ROOT, "[%d/%d] %s  (%s)", i, experiments.size(),
                    e.title(), e.name())));
            Terminal.wrap("claim: " + e.claim(), "", "       ").forEach(out::println);
            Result r = runOne(e);
            for (Check c : r.checks()) {
                Terminal.wrap(String.format(Locale.ROOT, "[%s] %s: %s", c.mark(), c.expectation(), c.evidence()), "  ",
                        "       ").forEach(out::println);
            }
            if (r.skipReason() != null) {
                out.println("  skipped because " + r.skipReason());
            }
            out.printf(Locale.ROOT, "verdict: %s  (%.1f s)%n", coloured(r.verdict(), r.verdict().label().toUpperCase(Locale.ROOT)),
                    r.seconds());
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
            out.printf(Locale.ROOT, "  %-14s %s %s%n", r.name(),
                    coloured(r.verdict(), String.format(Locale.ROOT, "%-14s", r.verdict().label())), r.title());
        }
        out.flush();
    }

    private static String coloured(Verdict v, String text) {
        return Terminal.colour(switch (v) {
            case HOLDS -> 32;
            case DOES_NOT_HOLD -> 31;
            case INCONCLUSIVE -> 33;
            case SKIPPED -> 2;
        }, text);
    }

    /** Zero when no verdict is "does not hold". */
    public static int exitCode(List<Result> results) {
        return results.stream().anyMatch(r -> r.verdict() == Verdict.DOES_NOT_HOLD) ? 1 : 0;
    }
}
