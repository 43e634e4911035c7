package io.jasyncio.task;

import io.jasyncio.context.Context;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;

import java.util.function.Supplier;

/**
 * The task engine's entry points: create tasks, await, yield. {@link io.jasyncio.Asyncio} is the
 * facade users import; this class is what it delegates to. Every entry point checks first that
 * the task engine asked for can run here, so a missing flag fails with one clear sentence.
 */
public final class Tasks {
    private Tasks() {
    }

    /** Wraps {@code body} in a task scheduled on {@code loop} (its first step is queued with callSoon). */
    public static <T> Task<T> create(EventLoop loop, Coroutine<T> body, String name, Context context) {
        EngineCheck.ensureAvailable();
        return new Task<>(loop, body, name, context, false);
    }

    /**
     * Wraps {@code body} in a task whose first step runs now, synchronously, until its first real
     * suspension (asyncio 3.12's eager task factory). A body that never suspends finishes here.
     */
    public static <T> Task<T> createEager(EventLoop loop, Coroutine<T> body, String name, Context context) {
        EngineCheck.ensureAvailable();
        return new Task<>(loop, body, name, context, true);
    }

    /** The task running on this thread, or null. */
    public static Task<?> current() {
        EngineCheck.ensureAvailable();
        return Task.current();
    }

    /**
     * The result of {@code future}. A done future returns (or throws) at once with no yield; only
     * a pending one suspends the calling task until it is done.
     */
    public static <T> T await(Future<T> future) {
        if (future.isDone()) {
            if (CooperativeBudget.loopsWithABudget != 0) {
                CooperativeBudget.spendOne();
            }
            return future.result();
        }
        return requireTask("await").suspendOn(future);
    }

    /** The explicit yield point: the task steps again in the next loop iteration. */
    public static void yieldNow() {
        requireTask("sleep(0)").yieldOnce();
    }

    /**
     * A reader, usable from any thread, of the thread whose stack holds {@code loop} now: the
     * loop's own thread, or, on the portable engine, the virtual thread of the task body it runs
     * (what the watchdog samples). Ask for it on the loop's thread or before the loop runs.
     */
    public static Supplier<Thread> threadRunning(EventLoop loop) {
        return ThreadBody.threadRunning(loop);
    }

    private static Task<?> requireTask(String what) {
        EngineCheck.ensureAvailable();
        Task<?> task = Task.current();
        if (task == null) {
            EventLoop loop = EventLoops.runningLoopOrNull();
            throw new IllegalStateException(what + " must be called from inside a task"
                    + (loop != null ? " (this is a plain callback on the loop: create a task for the code that awaits)"
                                    : " (no loop is running on this thread: use Asyncio.run)"));
        }
        return task;
    }
}
