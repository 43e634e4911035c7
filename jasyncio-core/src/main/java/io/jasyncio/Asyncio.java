package io.jasyncio;

import io.jasyncio.context.Context;
import io.jasyncio.exec.DefaultExecutorShutdown;
import io.jasyncio.exec.ToThread;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.Runner;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;
import io.jasyncio.task.VoidCoroutine;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * The facade: what asyncio's module-level functions are, for Java.
 *
 * <pre>{@code
 * import static io.jasyncio.Asyncio.*;
 *
 * String greeting = run(() -> {
 *     Task<String> t = createTask(() -> { sleep(0.1); return "hello"; });
 *     return await(t) + ", world";
 * });
 * }</pre>
 *
 * <p>Awaiting never yields to the loop unless the awaited thing is still pending; a plain method
 * call is a plain call. {@link #sleep(double) sleep(0)} is the explicit yield point.
 */
public final class Asyncio {
    private Asyncio() {
    }

    // ---- running ----------------------------------------------------------------------------

    /** Runs {@code main} on a fresh loop, cancels what is left, closes the loop; returns main's result. */
    public static <T> T run(Coroutine<T> main) {
        return run(main, false);
    }

    /** As {@link #run(Coroutine)}, with debug mode on or off. */
    public static <T> T run(Coroutine<T> main, boolean debug) {
        try (Runner runner = new Runner(debug, null)) {
            return runner.run(main);
        }
    }

    /** Runs a body that returns nothing. */
    public static void run(VoidCoroutine main) {
        run(main.asCoroutine(), false);
    }

    /** The loop running on this thread; throws outside one. */
    public static EventLoop getRunningLoop() {
        return EventLoops.getRunningLoop();
    }

    // ---- tasks ------------------------------------------------------------------------------

    /** Schedules {@code body} as a task on the running loop; it starts at the loop's next turn. */
    public static <T> Task<T> createTask(Coroutine<T> body) {
        return Tasks.create(getRunningLoop(), body, null, null);
    }

    public static <T> Task<T> createTask(Coroutine<T> body, String name) {
        return Tasks.create(getRunningLoop(), body, name, null);
    }

    /** A task that runs in {@code context} itself rather than in a copy of the current one. */
    public static <T> Task<T> createTask(Coroutine<T> body, String name, Context context) {
        return Tasks.create(getRunningLoop(), body, name, context);
    }

    public static Task<Void> createTask(VoidCoroutine body) {
        return Tasks.create(getRunningLoop(), body.asCoroutine(), null, null);
    }

    public static Task<Void> createTask(VoidCoroutine body, String name) {
        return Tasks.create(getRunningLoop(), body.asCoroutine(), name, null);
    }

    /** A task whose body starts now and runs synchronously until its first real suspension. */
    public static <T> Task<T> createEagerTask(Coroutine<T> body) {
        return Tasks.createEager(getRunningLoop(), body, null, null);
    }

    /** The task running now, or null outside a task. */
    public static Task<?> currentTask() {
        return Tasks.current();
    }

    /** The running loop's tasks that are not done. */
    public static Set<Task<?>> allTasks() {
        return Task.allTasks(getRunningLoop());
    }

    // ---- awaiting ---------------------------------------------------------------------------

    /**
     * The result of {@code future}: at once if it is done (no yield), else after suspending the
     * calling task until it is. Throws the future's own exception object, checked or not.
     */
    public static <T> T await(Future<T> future) {
        return Tasks.await(future);
    }

    /** Suspends the calling task for {@code seconds}; {@code sleep(0)} yields exactly once. */
    public static void sleep(double seconds) {
        if (seconds <= 0) {
            Tasks.yieldNow();
            return;
        }
        EventLoop loop = getRunningLoop();
        Future<Void> done = loop.createFuture();
        var timer = loop.callLater(seconds, () -> {
            if (!done.isDone()) {
                done.setResult(null);
            }
        });
        try {
            Tasks.await(done);
        } finally {
            timer.cancel();
        }
    }

    /** Suspends the calling task for {@code delay}. */
    public static void sleep(Duration delay) {
        sleep(delay.toNanos() / 1e9);
    }

    /** Suspends for {@code seconds}, then returns {@code result}. */
    public static <T> T sleep(double seconds, T result) {
        sleep(seconds);
        return result;
    }

    // ---- combinators: gather, wait, waitFor, asCompleted, shield, timeout, TaskGroup ----------

    // ---- blocking work: toThread ------------------------------------------------------------

    /**
     * Runs the blocking call {@code fn} on the loop's default executor and awaits its result, so
     * the loop keeps serving other tasks meanwhile (asyncio's {@code to_thread}). The call sees the
     * caller's {@code ContextVar} values (it runs in a copy of the current context). Cancelling the
     * awaiting task does not interrupt the worker; its result is dropped.
     */
    public static <T> T toThread(Callable<T> fn) {
        return ToThread.call(fn);
    }

    /**
     * Refuses new work for the default executor and awaits the work already running, without
     * blocking the loop (asyncio's {@code loop.shutdown_default_executor()}).
     */
    public static void shutdownDefaultExecutor() {
        DefaultExecutorShutdown.shutdown(-1);
    }

    /** As {@link #shutdownDefaultExecutor()}, giving up (with a warning) after {@code timeoutSeconds}. */
    public static void shutdownDefaultExecutor(double timeoutSeconds) {
        if (!(timeoutSeconds >= 0)) {
            throw new IllegalArgumentException("timeout must be >= 0 seconds, not " + timeoutSeconds);
        }
        DefaultExecutorShutdown.shutdown(timeoutSeconds);
    }

    // ---- networking: openConnection, startServer, ... ----------------------------------------
}
