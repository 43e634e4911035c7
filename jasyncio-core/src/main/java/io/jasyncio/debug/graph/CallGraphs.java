package io.jasyncio.debug.graph;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * asyncio 3.14's call-graph introspection in the process: {@link #capture(Future)} the graph of a
 * task or future (where it is suspended, and the chain of tasks awaiting it: through await,
 * TaskGroups, gather, shield, waitFor and timeouts), {@link #format} it as asyncio's
 * {@code print_call_graph} prints it. Call on the future's loop's thread (in a task, or a
 * callback): the graph reads the tasks' state, which only that thread may.
 *
 * <p>A cycle (tasks awaiting each other) is followed once round: a future already on the path from
 * the captured one is shown again without its awaiters.
 */
public final class CallGraphs {
    private static final StackWalker WALKER = StackWalker.getInstance();

    private CallGraphs() {
    }

    /**
     * The graph of the task running now, suspended frames being the caller's own stack; null
     * outside a task. Throws {@link IllegalStateException} with no loop running on this thread.
     */
    public static FutureCallGraph captureCurrent() {
        EventLoop loop = EventLoops.getRunningLoop();
        Task<?> current = Task.current();
        if (current == null) {
            return null;
        }
        StackTraceElement[] stack = WALKER.walk(s -> s
                .dropWhile(f -> f.getClassName().equals(CallGraphs.class.getName())
                        || f.getClassName().equals("io.jasyncio.Asyncio"))
                .map(StackWalker.StackFrame::toStackTraceElement)
                .toArray(StackTraceElement[]::new));
        return build(current, cutAtBody(stack), Awaiters.of(loop), new IdentityHashMap<>());
    }

    /** The graph of {@code future}: a task's suspended frames and what awaits it; the current task's frames are the caller's. */
    public static FutureCallGraph capture(Future<?> future) {
        Objects.requireNonNull(future, "future");
        if (future == Task.current()) {
            return captureCurrent();
        }
        return build(future, null, Awaiters.of(future.getLoop()), new IdentityHashMap<>());
    }

    private static FutureCallGraph build(Future<?> future, StackTraceElement[] ownStack, Awaiters awaiters,
                                         Map<Future<?>, Boolean> path) {
        StackTraceElement[] raw = ownStack != null ? ownStack
                : future instanceof Task<?> task ? task.getStack() : new StackTraceElement[0];
        List<FutureCallGraph> by = new ArrayList<>();
        if (path.put(future, Boolean.TRUE) == null) {
            for (Future<?> waiter : awaiters.of(future)) {
                by.add(build(waiter, null, awaiters, path));
            }
            path.remove(future);
        }
        return new FutureCallGraph(future, ProgramFrames.of(raw), by);
    }

    private static StackTraceElement[] cutAtBody(StackTraceElement[] stack) {
        for (int i = 0; i < stack.length; i++) {
            if (stack[i].getMethodName().equals("runBody") && stack[i].getClassName().equals(Task.class.getName())) {
                return java.util.Arrays.copyOf(stack, i);
            }
        }
        return stack;
    }

    /**
     * The graph as asyncio's {@code print_call_graph} prints it:
     * <pre>
     * * Task(name='Task-2', id=0x1b6d3586)
     *   + Call stack:
     *   |   File 'Example.java', line 4, in Example.test()
     *   + Awaited by:
     *      * Task(name='Task-1', id=0x4554617c)
     *         + Call stack:
     *         |   File 'TaskGroup.java', line 107, in TaskGroup.run()
     *         |   File 'Example.java', line 7, in Example.main()
     * </pre>
     * Ids are the objects' identity hash codes (asyncio prints addresses).
     */
    public static String format(FutureCallGraph graph) {
        List<String> lines = new ArrayList<>();
        render(graph, lines, 0);
        return String.join("\n", lines);
    }

    /** Prints {@link #format} of {@code graph}, and a line break, to {@code out}. */
    public static void print(FutureCallGraph graph, PrintStream out) {
        out.println(format(graph));
    }

    private static void render(FutureCallGraph g, List<String> lines, int level) {
        String indent = "    ".repeat(level);
        if (g.future() instanceof Task<?> t) {
            lines.add(indent + "* Task(name='" + t.getName() + "', id=" + id(t) + ")");
        } else {
            lines.add(indent + "* Future(id=" + id(g.future()) + ")");
        }
        if (!g.callStack().isEmpty()) {
            lines.add(indent + "  + Call stack:");
            for (StackTraceElement f : g.callStack()) {
                lines.add(indent + "  |   File '" + (f.getFileName() != null ? f.getFileName() : "Unknown Source")
                        + "', line " + f.getLineNumber() + ", in " + ProgramFrames.function(f) + "()");
            }
        }
        if (!g.awaitedBy().isEmpty()) {
            lines.add(indent + "  + Awaited by:");
            for (FutureCallGraph by : g.awaitedBy()) {
                render(by, lines, level + 1);
            }
        }
    }

    /** A future's id in graphs, {@code ps} and {@code pstree}: its identity hash code, as hex. */
    public static String id(Future<?> future) {
        return "0x" + Integer.toHexString(System.identityHashCode(future));
    }
}
