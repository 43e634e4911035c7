package io.jasyncio.loop;

import java.util.List;

/**
 * Where a future or task was created: a few frames of the creating code, captured in debug mode
 * only (asyncio's {@code _source_traceback}). Frames of the library's own machinery (the loop,
 * the task engine, the facade) are skipped, so the first frame is the caller's code.
 */
public final class CreationStack {
    /** Frames kept: enough to see the caller and its caller, cheap enough to take per future. */
    static final int MAX_FRAMES = 6;

    private static final StackWalker WALKER = StackWalker.getInstance();

    private CreationStack() {
    }

    /** The calling code's frames, most recent first. Costs a stack walk: call in debug mode only. */
    public static StackTraceElement[] capture() {
        List<StackTraceElement> frames = WALKER.walk(s -> s
                .dropWhile(f -> isMachinery(f.getClassName()))
                .limit(MAX_FRAMES)
                .map(StackWalker.StackFrame::toStackTraceElement)
                .toList());
        return frames.toArray(new StackTraceElement[0]);
    }

    private static boolean isMachinery(String className) {
        return className.startsWith("io.jasyncio.loop.")
                || className.startsWith("io.jasyncio.task.")
                || className.startsWith("io.jasyncio.exec.")
                || className.equals("io.jasyncio.Asyncio");
    }

    /** " created at Frame" for a one-line description (asyncio's repr in debug mode), or "". */
    public static String createdAt(StackTraceElement[] stack) {
        return stack == null || stack.length == 0 ? "" : " created at " + stack[0];
    }

    /** The frames as a report block: "Object created at (most recent call first):" and one line each. */
    public static String format(StackTraceElement[] stack) {
        StringBuilder text = new StringBuilder("Object created at (most recent call first):");
        for (StackTraceElement frame : stack) {
            text.append("\n\tat ").append(frame);
        }
        return text.toString();
    }
}
