package io.jasyncio.debug.graph;

import java.util.List;

/**
 * One pending task as {@code ps} and {@code pstree} show it: plain data, so it travels over JMX
 * (an MXBean maps it to {@code CompositeData}).
 *
 * @param loop      the loop's id ({@link io.jasyncio.loop.EventLoops#liveLoops})
 * @param thread    the loop thread's id (asyncio's "tid"), 0 if it is not running
 * @param id        the task's id ({@link CallGraphs#id})
 * @param name      the task's name
 * @param state     {@code running}, {@code ready} (its next step is queued) or {@code waiting}
 * @param waitingOn what it is suspended on: {@code Task 'name'}, or the future's class; empty if none
 * @param stack     where it is suspended, {@link ProgramFrames#label} of each frame, most recent first
 * @param awaitedBy the ids of the tasks awaiting it
 */
public record TaskRow(int loop, long thread, String id, String name, String state, String waitingOn,
                      List<String> stack, List<String> awaitedBy) {
    /** Copies the lists: a row does not change once taken. */
    public TaskRow {
        stack = List.copyOf(stack);
        awaitedBy = List.copyOf(awaitedBy);
    }

    TaskRow withStack(List<String> frames) {
        return new TaskRow(loop, thread, id, name, state, waitingOn, frames, awaitedBy);
    }
}
