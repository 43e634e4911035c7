package io.jasyncio.lab.experiments;

/**
 * One measured condition behind a verdict: what must be true, whether it was, and the numbers
 * that decided it. An {@code inconclusive} check could not tell (the difference it looks for was
 * within the measurements' own spread): it neither passed nor failed.
 */
public record Check(String expectation, boolean passed, String evidence, boolean inconclusive) {
    public Check(String expectation, boolean passed, String evidence) {
        this(expectation, passed, evidence, false);
    }

    /** The mark the console prints: ok, no, or ?? for inconclusive. */
    public String mark() {
        return inconclusive ? "??" : passed ? "ok" : "no";
    }

    /** {@code true}/{@code false}, or null when inconclusive (for the JSON report). */
    public Boolean outcome() {
        return inconclusive ? null : passed;
    }
}
