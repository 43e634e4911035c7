package io.jasyncio.task.internal;

import io.jasyncio.task.Coroutine;
import io.jasyncio.task.CoroutineTasks;
import io.jasyncio.task.Tasks;
import io.jasyncio.task.Timeout;
import io.jasyncio.task.TimeoutException;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.util.function.Consumer;

/**
 * A result within a time limit, as asyncio 3.12's {@code wait_for}: a {@link Timeout} scope
 * around the await. When the time runs out, the awaited work is cancelled and waited for (its
 * cleanup runs to the end), then {@link TimeoutException} is raised. A null timeout waits as long
 * as it takes.
 */
public final class WaitFor {
    private WaitFor() {
    }

    /** Awaits {@code future} for at most {@code timeout} seconds (null: no limit). */
    public static <T> T waitFor(Future<T> future, Double timeout) {
        if (timeout != null && timeout <= 0) {
            return cancelAtOnceUnlessDone(future);
        }
        return timeoutScope(timeout).run(() -> Tasks.await(future));
    }

    /**
     * Runs {@code body} as a task of its own (as asyncio wraps a coroutine) and awaits it for at
     * most {@code timeout} seconds. With a timeout of zero or less the task is cancelled before its
     * first step, so the body never runs (as in asyncio).
     */
    public static <T> T waitFor(Coroutine<T> body, Double timeout) {
        return waitFor(CoroutineTasks.of(body), timeout);
    }

    private static Timeout timeoutScope(Double timeout) {
        return timeout == null ? Timeout.never() : Timeout.after(timeout);
    }

    /** The zero-timeout case: a done future gives its result, anything else is cancelled and awaited. */
    private static <T> T cancelAtOnceUnlessDone(Future<T> future) {
        if (future.isDone()) {
            return future.result();
        }
        cancelAndWait(future);
        try {
            return future.result();
        } catch (CancelledError cancelled) {
            throw new TimeoutException(cancelled);
        }
    }

    /** Cancels {@code future} and waits until it is done, without consuming its outcome. */
    private static void cancelAndWait(Future<?> future) {
        EventLoop loop = future.getLoop();
        Future<Void> waiter = loop.createFuture();
        Consumer<Future<?>> release = f -> {
            if (!waiter.isDone()) {
                waiter.setResult(null);
            }
        };
        future.addDoneCallback(release);
        try {
            future.cancel();
            Tasks.await(waiter);
        } finally {
            future.removeDoneCallback(release);
        }
    }
}
