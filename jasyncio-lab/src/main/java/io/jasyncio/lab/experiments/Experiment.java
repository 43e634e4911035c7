package io.jasyncio.lab.experiments;

/**
 * One claim about the loop, made visible: the experiment sets up a small program, measures it
 * through a {@link Trial}, and records the checks its verdict is computed from.
 */
public interface Experiment {
    /** Short name, as given to {@code --only}. */
    String name();

    /** Headline, e.g. "One iteration, dissected". */
    String title();

    /** The claim under test, in one or two sentences. */
    String claim();

    /** Runs the experiment; {@code trial.quick()} asks for small sizes. */
    void run(Trial trial) throws Exception;
}
