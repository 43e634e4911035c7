package io.jasyncio.lab.experiments;

/** What the measurements say about a claim. */
public enum Verdict {
    HOLDS("holds"),
    DOES_NOT_HOLD("does not hold"),
    /** No check failed, but one could not tell: a difference within the spread of the runs. Not a pass. */
    INCONCLUSIVE("inconclusive"),
    /** The experiment could not measure what the claim needs here (said why); not a pass. */
    SKIPPED("skipped");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    /** The words used in the console, the JSON and the HTML report. */
    public String label() {
        return label;
    }
}
