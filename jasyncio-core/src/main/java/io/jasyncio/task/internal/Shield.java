package io.jasyncio.task.internal;

import io.jasyncio.task.Coroutine;
import io.jasyncio.task.CoroutineTasks;
import io.jasyncio.task.FutureOutcome;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;

import java.util.function.Consumer;

/**
 * Protects a future from the cancellation of whoever awaits it, as asyncio's {@code shield}.
 *
 * <p>{@code await(shield(inner))} waits on an outer future that follows {@code inner}: cancelling
 * the awaiting task cancels only the outer one, and {@code inner} runs on. Cancelling
 * {@code inner} itself still cancels the outer future; its failure fails it.
 */
public final class Shield {
    private Shield() {
    }

    /** Shields a coroutine: it becomes a task on the running loop (as in asyncio), then as {@link #shield(Future)}. */
    public static <T> Future<T> shield(Coroutine<T> body) {
        return shield(CoroutineTasks.of(body));
    }

    /** The outer future that follows {@code inner}; {@code inner} itself if it is already done. */
    public static <T> Future<T> shield(Future<T> inner) {
        if (inner.isDone()) {
            return inner;
        }
        Future<T> outer = inner.getLoop().createFuture();
        Task<?> caller = Task.current(); // awaits inner through the shield (call graphs), as asyncio records it
        if (caller != null) {
            inner.addAwaitedBy(caller);
        }
        Consumer<Future<T>> follow = done -> {
            if (caller != null) {
                done.discardAwaitedBy(caller);
            }
            if (outer.isCancelled()) {
                if (!done.isCancelled()) {
                    done.exception(); // nobody will look at it through the outer future
                }
                return;
            }
            if (done.isCancelled()) {
                outer.cancel();
                return;
            }
            FutureOutcome.copy(done, outer);
        };
        inner.addDoneCallback(follow);
        outer.addDoneCallback(o -> {
            if (!inner.isDone()) {
                inner.removeDoneCallback(follow);
                if (caller != null) {
                    inner.discardAwaitedBy(caller);
                }
            }
        });
        return outer;
    }
}
