package io.jasyncio.debug;

import java.util.List;

/**
 * What the {@link Watchdog} saw: a handle that held the loop past the threshold, and the loop
 * thread's stack captured while it was still blocked.
 *
 * @param loopThread   the loop thread's name
 * @param handle       the running handle, as reports name it (a task step names the task)
 * @param blockedNanos how long the handle had been running when the stack was taken
 * @param stack        the loop thread's stack at that moment, most recent call first
 * @param eagerStep    the eager task step running inside the handle then, as reports name it (the
 *                     task), or null: the handle's own code held the loop
 */
public record BlockedLoopReport(String loopThread, String handle, long blockedNanos, List<StackTraceElement> stack,
                                String eagerStep) {
    /** Frames shown in {@link #toString()}; the rest is summarised. */
    private static final int SHOWN_FRAMES = 25;

    /** A report of {@code stack} (copied). */
    public BlockedLoopReport {
        stack = List.copyOf(stack);
    }

    /** A report of a handle that ran no eager task step when the stack was taken. */
    public BlockedLoopReport(String loopThread, String handle, long blockedNanos, List<StackTraceElement> stack) {
        this(loopThread, handle, blockedNanos, stack, null);
    }

    /** The holder as the report's first line names it: the handle, and the eager task step in it if any. */
    public String heldBy() {
        return eagerStep == null ? handle : handle + "; in it, eager step of " + eagerStep;
    }

    /**
     * The frame that blocks: the most recent one outside the JDK, i.e. the application method
     * that called {@code Thread.sleep}, a blocking read, or that is itself spinning the CPU.
     * Null if every frame is the JDK's.
     */
    public StackTraceElement blockingFrame() {
        for (StackTraceElement frame : stack) {
            if (!isJdk(frame.getClassName())) {
                return frame;
            }
        }
        return null;
    }

    private static boolean isJdk(String className) {
        return className.startsWith("java.") || className.startsWith("javax.") || className.startsWith("jdk.")
                || className.startsWith("sun.") || className.startsWith("com.sun.");
    }

    /** How long the handle had been running, in seconds. */
    public double blockedSeconds() {
        return blockedNanos / 1e9;
    }

    /** The report in one line: the loop, how long so far, by what, and the blocking frame. */
    public String summary() {
        StackTraceElement blocking = blockingFrame();
        return String.format("Event loop on thread '%s' blocked for %.3f seconds (and counting) by %s", loopThread,
                blockedSeconds(), heldBy()) + (blocking != null ? " at " + blocking : "");
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(String.format(
                "Event loop on thread '%s' blocked for %.3f seconds (and counting) by %s",
                loopThread, blockedSeconds(), heldBy()));
        StackTraceElement blocking = blockingFrame();
        if (blocking != null) {
            text.append("\n  blocking frame: ").append(blocking);
        }
        text.append("\n  loop thread stack while blocked:");
        for (int i = 0; i < Math.min(SHOWN_FRAMES, stack.size()); i++) {
            text.append("\n\tat ").append(stack.get(i));
        }
        if (stack.size() > SHOWN_FRAMES) {
            text.append("\n\t... ").append(stack.size() - SHOWN_FRAMES).append(" more");
        }
        return text.toString();
    }
}
