package io.jasyncio.task;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What {@code wait} returns: the futures that are done and those still pending (asyncio's
 * {@code (done, pending)} pair), each set in the order the futures were given.
 */
public record DoneAndPending<F>(Set<F> done, Set<F> pending) {
    /** The two sets, copied. */
    public DoneAndPending {
        done = Collections.unmodifiableSet(new LinkedHashSet<>(done));
        pending = Collections.unmodifiableSet(new LinkedHashSet<>(pending));
    }
}
