package io.jasyncio.task;

import io.jasyncio.context.Context;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.DefaultExecutor;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs coroutines on a loop of its own, as asyncio's {@code Runner}: {@code Asyncio.run} is one
 * Runner used once. Closing it cancels the tasks still pending and waits for them, shuts the
 * default executor down, and closes the loop. On the JVM's main thread, SIGINT cancels the main
 * task (a second one ends the process), see {@link SigintCancelsMainTask}.
 */
public final class Runner implements AutoCloseable {
    /** asyncio's {@code THREAD_JOIN_TIMEOUT}: how long closing waits for the default executor. */
    private static final double THREAD_JOIN_TIMEOUT_SECONDS = 300;

    private final boolean debug;
    private final String loopName;
    private EventLoop loop;
    private final Context context = Context.copyCurrent();
    private boolean closed;
    /** Whether runs drive the loop from a virtual thread (see {@link VirtualLoopThread}). */
    private boolean onVirtualLoopThread;

    /** A runner without debug mode, on the default loop implementation. */
    public Runner() {
        this(false, null);
    }

    /** A runner in debug mode or not, on the named loop implementation (null: the default). */
    public Runner(boolean debug, String loopName) {
        this.debug = debug;
        this.loopName = loopName;
    }

    /** The runner's loop, created on first use. */
    public EventLoop getLoop() {
        if (closed) {
            throw new IllegalStateException("Runner is closed");
        }
        if (loop == null) {
            loop = loopName == null ? EventLoops.newEventLoop() : EventLoops.newEventLoop(loopName);
            onVirtualLoopThread = VirtualLoopThread.wanted(loopName == null ? EventLoops.defaultLoopName() : loopName);
            if (debug) {
                loop.setDebug(true);
            }
        }
        return loop;
    }

    /**
     * Runs {@code main} as a task on the runner's loop until it is done; returns its result. Every
     * run uses the runner's one context, as asyncio's {@code Runner} does: what a run sets in a
     * {@code ContextVar} the next run sees.
     *
     * <p>A failure of {@code main} is thrown as it is, checked or not; {@code throws X} declares
     * the checked exceptions Java infers from a lambda's body, so they can be caught by type
     * around this call (see {@link ThrowingCoroutine}).
     */
    public <T, X extends Exception> T run(ThrowingCoroutine<T, X> main) throws X {
        if (EventLoops.runningLoopOrNull() != null) {
            throw new IllegalStateException("Asyncio.run() cannot be called from a running event loop");
        }
        EventLoop l = getLoop();
        boolean onMainThread = SigintCancelsMainTask.isJvmMainThread();
        if (onVirtualLoopThread && !Thread.currentThread().isVirtual() && !l.getDebug()) {
            return VirtualLoopThread.call(() -> runTask(l, main.asCoroutine(), onMainThread));
        }
        return runTask(l, main.asCoroutine(), onMainThread);
    }

    private <T> T runTask(EventLoop l, Coroutine<T> main, boolean onMainThread) {
        Task<T> task = Tasks.create(l, main, null, context);
        SigintCancelsMainTask sigint = onMainThread ? SigintCancelsMainTask.installFor(l, task) : null;
        try {
            return l.runUntilComplete(task);
        } catch (CancelledError e) {
            if (sigint != null && sigint.interrupted() && task.uncancel() == 0) {
                throw new KeyboardInterrupt(); // as asyncio: Ctrl-C cancelled main, and main did not swallow it
            }
            throw e;
        } finally {
            if (sigint != null) {
                sigint.close();
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (loop == null) {
            return;
        }
        if (onVirtualLoopThread && !Thread.currentThread().isVirtual() && !loop.getDebug()) {
            VirtualLoopThread.call(() -> {
                finishAndClose(loop);
                return null;
            });
        } else {
            finishAndClose(loop);
        }
    }

    private static void finishAndClose(EventLoop loop) {
        try {
            cancelAllTasks(loop);
            shutdownDefaultExecutor(loop);
        } finally {
            loop.close();
        }
    }

    private static void cancelAllTasks(EventLoop loop) {
        List<Task<?>> pending = List.copyOf(Task.allTasks(loop));
        if (pending.isEmpty()) {
            return;
        }
        for (Task<?> t : pending) {
            t.cancel();
        }
        loop.runUntilComplete(GatheringFuture.gather(true, pending)); // as asyncio: gather(*tasks, return_exceptions=True)
        for (Task<?> t : pending) {
            if (t.isCancelled()) {
                continue;
            }
            Throwable error = t.exception();
            if (error != null) {
                Map<String, Object> context = new LinkedHashMap<>();
                context.put("message", "unhandled exception during Asyncio.run() shutdown");
                context.put("exception", error);
                context.put("task", t);
                loop.callExceptionHandler(context);
            }
        }
    }

    /** As asyncio's Runner: the loop keeps running while the pool joins, for at most 300 s. */
    private static void shutdownDefaultExecutor(EventLoop loop) {
        loop.runUntilComplete(DefaultExecutor.shutdown(loop, THREAD_JOIN_TIMEOUT_SECONDS));
    }
}
