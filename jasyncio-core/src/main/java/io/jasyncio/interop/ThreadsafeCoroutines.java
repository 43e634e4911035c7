package io.jasyncio.interop;

import io.jasyncio.loop.CompletableFutureBridge;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/** asyncio's {@code run_coroutine_threadsafe}: submit a coroutine to a loop from another thread. */
public final class ThreadsafeCoroutines {
    private ThreadsafeCoroutines() {
    }

    /**
     * Schedules {@code body} as a task on {@code loop} (running on another thread) and returns a
     * future of its outcome. Cancelling the returned future cancels the task; a future cancelled
     * before the task was created means the body never runs. The future is completed on the loop
     * thread: chain heavy work with the {@code *Async} methods. Throws
     * {@link IllegalStateException} when the loop is closed.
     */
    public static <T> CompletableFuture<T> submit(Coroutine<T> body, EventLoop loop) {
        Objects.requireNonNull(body, "body");
        CompletableFuture<T> outcome = new CompletableFuture<>();
        loop.callSoonThreadsafe(() -> start(loop, body, outcome));
        return outcome;
    }

    /**
     * The loop side of {@link #submit}, on {@code loop}'s thread: creates the task and chains it
     * to {@code outcome}, unless {@code outcome} was cancelled before the loop got to it.
     */
    public static <T> void start(EventLoop loop, Coroutine<T> body, CompletableFuture<T> outcome) {
        if (outcome.isDone()) {
            return; // cancelled before it could start
        }
        Task<T> task;
        try {
            task = Tasks.create(loop, body, null, null);
        } catch (Throwable t) {
            outcome.completeExceptionally(t);
            throw t;
        }
        CompletableFutureBridge.chain(task, outcome);
    }
}
