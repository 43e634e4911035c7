package io.jasyncio.testing;

import java.util.function.BooleanSupplier;

/**
 * Test helper: asks for garbage collections until a condition holds, a bounded number of them (not
 * a wall-clock wait). A full collection clears what is only weakly reachable, and its cleaners run
 * on their own thread just after: a few collections suffice, so a reference still held is caught by
 * the caller's assertion within about a second.
 */
public final class Collect {
    /** Collections asked before giving up; each is followed by a short pause for the cleaner thread. */
    public static final int MAX_COLLECTIONS = 40;

    private Collect() {
    }

    /** Collects until {@code done}, at most {@link #MAX_COLLECTIONS} times; returns whether it is. */
    public static boolean until(BooleanSupplier done) {
        for (int i = 0; i < MAX_COLLECTIONS && !done.getAsBoolean(); i++) {
            System.gc();
            try {
                Thread.sleep(25);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while collecting", e);
            }
        }
        return done.getAsBoolean();
    }
}
