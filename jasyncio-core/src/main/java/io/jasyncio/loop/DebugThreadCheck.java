package io.jasyncio.loop;

/**
 * asyncio's debug-mode check that a non-thread-safe call (a future's {@code setResult}, a queue's
 * {@code putNowait}, an event's {@code set}...) runs on its loop's thread: from another thread it
 * would change loop state under the loop's feet, and usually appear to work. The loop's own
 * scheduling calls ({@code callSoon}, {@code callLater}) check always; these check only in debug
 * mode, and cost one read of a static flag until some loop turns debug mode on. Public for the
 * library's own layers (futures, tasks, sync primitives); not for application code.
 */
public final class DebugThreadCheck {
    /** Set once any loop runs in debug mode: until then no check looks further than this flag. */
    private static volatile boolean anyLoopInDebug;

    private DebugThreadCheck() {
    }

    /** A loop turned debug mode on (at creation or by setDebug): the checks start looking. */
    public static void debugTurnedOn() {
        anyLoopInDebug = true;
    }

    /** Whether any loop has run in debug mode (a cheap pre-test before the real check). */
    public static boolean active() {
        return anyLoopInDebug;
    }

    /**
     * Throws when {@code loop} is in debug mode, running, and this is not its turn (neither its
     * thread nor a task body of it on the portable engine).
     */
    public static void check(EventLoop loop, String operation) {
        if (!anyLoopInDebug || loop == null || !loop.getDebug()) {
            return;
        }
        Thread owner = loop.thread();
        if (owner != null && owner != Thread.currentThread() && EventLoops.runningLoopOrNull() != loop) {
            throw new IllegalStateException(operation + " called from thread '" + Thread.currentThread().getName()
                    + "' but the loop runs on '" + owner.getName() + "': it is not thread-safe; from another thread "
                    + "use loop.callSoonThreadsafe(() -> ...) (checked in debug mode, as asyncio's)");
        }
    }
}
