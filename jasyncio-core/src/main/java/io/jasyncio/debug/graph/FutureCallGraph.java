package io.jasyncio.debug.graph;

import io.jasyncio.loop.Future;

import java.util.List;

/**
 * A future's place in the await graph, as asyncio's {@code FutureCallGraph}: the future (or task),
 * the frames where it is suspended (a task's, most recent first, as {@link ProgramFrames} shows
 * them; empty for a plain future), and the graphs of what awaits it, each the same again.
 */
public record FutureCallGraph(Future<?> future, List<StackTraceElement> callStack, List<FutureCallGraph> awaitedBy) {
    /** Copies the lists: a graph does not change once taken. */
    public FutureCallGraph {
        callStack = List.copyOf(callStack);
        awaitedBy = List.copyOf(awaitedBy);
    }
}
