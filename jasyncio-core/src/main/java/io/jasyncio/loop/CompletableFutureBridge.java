package io.jasyncio.loop;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * A loop {@link Future} chained to a {@link CompletableFuture}, both ways, as asyncio's
 * {@code futures._chain_future} chains an asyncio future to a {@code concurrent.futures} one:
 * the loop future's outcome completes the Java one (on the loop thread, so the Java future's
 * non-async dependents run there too), and cancelling the Java future, from any thread, cancels
 * the loop future through {@code callSoonThreadsafe}.
 */
public final class CompletableFutureBridge {
    private CompletableFutureBridge() {
    }

    /** Chains {@code source} (a loop future; call on its loop's thread) to {@code target}. */
    public static <T> void chain(Future<T> source, CompletableFuture<T> target) {
        EventLoop loop = source.getLoop();
        source.addDoneCallback(done -> copyOutcome(done, target));
        target.whenComplete((value, error) -> {
            if (target.isCancelled()) {
                cancelOnLoop(loop, source);
            }
        });
    }

    private static <T> void copyOutcome(Future<T> source, CompletableFuture<T> target) {
        if (target.isDone()) {
            return; // the Java side was cancelled first
        }
        if (source.isCancelled()) {
            String message = source.cancelMessage();
            target.completeExceptionally(message == null ? new CancellationException() : new CancellationException(message));
            return;
        }
        Throwable error = source.exception();
        if (error != null) {
            target.completeExceptionally(error);
        } else {
            target.complete(source.result());
        }
    }

    /** Cancels {@code future} on its loop from whatever thread this is; a closed loop has nothing left to cancel. */
    public static void cancelOnLoop(EventLoop loop, Future<?> future) {
        try {
            loop.callSoonThreadsafe(() -> future.cancel());
        } catch (IllegalStateException closed) {
            // the loop is closed: the future can never complete, and no one can await it any more
        }
    }
}
