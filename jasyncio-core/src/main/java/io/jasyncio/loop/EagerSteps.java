package io.jasyncio.loop;

/**
 * The eager task steps that ran inside one handle (the outermost ones: a step started inside
 * another eager step is part of that one's time), as reports name them: the longest, how many,
 * how long in all. One per reporter, reused from handle to handle; loop thread only.
 */
public final class EagerSteps {
    private Handle longest;
    private long longestNanos;
    private int count;
    private long totalNanos;

    /** An empty tally. */
    public EagerSteps() {
    }

    /** Counts one eager step, {@code step} (its handle names the task), that ran {@code nanos}. */
    public void add(Handle step, long nanos) {
        if (longest == null || nanos > longestNanos) {
            longest = step;
            longestNanos = nanos;
        }
        count++;
        totalNanos += nanos;
    }

    /** Forgets every step (and lets go of the task): the next handle starts empty. */
    public void clear() {
        longest = null;
        longestNanos = 0;
        count = 0;
        totalNanos = 0;
    }

    /** The longest step's handle (it names the task), or null when none ran. */
    public Handle longest() {
        return longest;
    }

    /** How long the steps ran in all. */
    public long totalNanos() {
        return totalNanos;
    }

    /**
     * What follows a slow handle's report: empty when no eager step ran in it, else
     * {@code "; in it, eager step of <Task ...> took 0.201 seconds"}, and with several
     * {@code " (the longest of 3 eager steps, 0.250 seconds in all)"}.
     */
    public String describe() {
        if (longest == null) {
            return "";
        }
        String text = String.format("; in it, eager step of %s took %.3f seconds",
                longest.describeForReport(), longestNanos / 1e9);
        return count == 1 ? text : text + String.format(" (the longest of %d eager steps, %.3f seconds in all)",
                count, totalNanos / 1e9);
    }
}
