package io.jasyncio.interop;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

/**
 * asyncio's {@code wrap_future} for Java: a {@link CompletionStage} or a
 * {@link java.util.concurrent.Future} seen as a loop {@link Future}, which a task can await. The
 * outcome always reaches the loop through {@code callSoonThreadsafe}, never on the completing
 * thread (even when the Java future is already done, as asyncio does it); cancelling the loop
 * future (e.g. cancelling the task that awaits it) cancels the Java one, without interrupting
 * it ({@code cancel(false)}: as in asyncio, a running thread is never interrupted).
 */
public final class JavaFutures {
    private JavaFutures() {
    }

    /** A loop future following {@code stage}. Call on the loop's thread. */
    public static <T> Future<T> wrap(EventLoop loop, CompletionStage<T> stage) {
        Objects.requireNonNull(stage, "stage");
        Future<T> mirror = loop.createFuture();
        mirror.addDoneCallback(f -> {
            if (f.isCancelled()) {
                cancel(stage);
            }
        });
        stage.whenComplete((value, error) -> deliver(loop, mirror, value, unwrap(error)));
        return mirror;
    }

    /**
     * A loop future following {@code future}. A {@link CompletionStage} (a
     * {@code CompletableFuture}) is followed through its callbacks; any other Java future has
     * none, so one virtual thread blocks in its {@code get()} until it is done.
     */
    @SuppressWarnings("unchecked")
    public static <T> Future<T> wrap(EventLoop loop, java.util.concurrent.Future<T> future) {
        Objects.requireNonNull(future, "future");
        if (future instanceof CompletionStage<?> stage) {
            return wrap(loop, (CompletionStage<T>) stage);
        }
        Future<T> mirror = loop.createFuture();
        mirror.addDoneCallback(f -> {
            if (f.isCancelled()) {
                future.cancel(false);
            }
        });
        Thread.ofVirtual().name("jasyncio-wrapFuture").start(() -> {
            T value = null;
            Throwable error = null;
            try {
                value = future.get();
            } catch (ExecutionException e) {
                error = e.getCause() != null ? e.getCause() : e;
            } catch (CancellationException | InterruptedException e) {
                error = e;
            }
            deliver(loop, mirror, value, error);
        });
        return mirror;
    }

    private static void cancel(CompletionStage<?> stage) {
        if (stage instanceof java.util.concurrent.Future<?> f) {
            f.cancel(false);
            return;
        }
        try {
            stage.toCompletableFuture().cancel(false);
        } catch (UnsupportedOperationException cannot) {
            // a minimal stage cannot be cancelled: its outcome is dropped when it comes
        }
    }

    /** The cause a dependent stage wraps in CompletionException, as {@code join()} would unwrap it. */
    private static Throwable unwrap(Throwable error) {
        if (error instanceof CompletionException && error.getCause() != null) {
            return error.getCause();
        }
        return error;
    }

    private static <T> void deliver(EventLoop loop, Future<T> mirror, T value, Throwable error) {
        try {
            loop.callSoonThreadsafe(() -> {
                if (mirror.isDone()) {
                    return; // cancelled on the loop side meanwhile: the outcome is dropped
                }
                if (error instanceof CancellationException c) {
                    mirror.cancel(c.getMessage());
                } else if (error != null) {
                    mirror.setException(error);
                } else {
                    mirror.setResult(value);
                }
            });
        } catch (IllegalStateException closed) {
            // the loop is closed: nobody can await the mirror any more
        }
    }
}
