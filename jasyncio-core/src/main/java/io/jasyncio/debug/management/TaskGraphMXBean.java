package io.jasyncio.debug.management;

import io.jasyncio.debug.graph.TaskRow;

import java.util.List;

/**
 * {@code io.jasyncio:type=TaskGraph}: the pending tasks of every loop in this JVM, with who awaits
 * whom and where each is suspended; what {@code ./jasyncio ps} and {@code pstree} read.
 */
public interface TaskGraphMXBean {
    /** The JMX name the bean is registered under. */
    String NAME = "io.jasyncio:type=TaskGraph";

    /**
     * Every pending task of every running loop, loop by loop. Each loop takes its snapshot on its
     * own thread, in slices of about a millisecond; a loop that does not answer within
     * {@code timeoutMillis} (held by a callback) is left out, and {@link #getUnansweredLoops} says so.
     */
    List<TaskRow> tasks(long timeoutMillis);

    /** The loops the last {@link #tasks} call got no answer from in time: "id thread", one per loop. */
    List<String> getUnansweredLoops();

    /** The ids of the live loops. */
    List<Integer> getLoops();
}
