package io.jasyncio.util;

import java.security.CodeSource;
import java.util.List;
import java.util.Objects;

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

    private static final StackWalker CLASS_WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    /**
     * As {@link #capture()}, skipping every frame of the library itself, whatever its package:
     * for what the library creates on the caller's behalf (a transport, deep in the network
     * layer or in a server's accept), so the first frame is still the caller's code.
     */
    public static StackTraceElement[] captureOutsideLibrary() {
        CodeSource library = CreationStack.class.getProtectionDomain().getCodeSource();
        List<StackTraceElement> frames = CLASS_WALKER.walk(s -> s
                .dropWhile(f -> isMachinery(f.getClassName())
                        || Objects.equals(f.getDeclaringClass().getProtectionDomain().getCodeSource(), library))
                .limit(MAX_FRAMES)
                .map(StackWalker.StackFrame::toStackTraceElement)
                .toList());
        return frames.toArray(new StackTraceElement[0]);
    }

    private static boolean isMachinery(String className) {
        return className.startsWith("io.jasyncio.loop.")
                || className.startsWith("io.jasyncio.util.")
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
