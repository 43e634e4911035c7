package io.jasyncio.task;

import io.jasyncio.loop.Future;

/** Passing a finished future's outcome on to another future (asyncio's {@code _copy_future_state}), written once. */
public final class FutureOutcome {
    private FutureOutcome() {
    }

    /**
     * Gives {@code to} the result or the exception of {@code from}, which is done and not
     * cancelled (the callers each handle cancellation their own way).
     */
    public static <T> void copy(Future<? extends T> from, Future<T> to) {
        Throwable error = from.exception();
        if (error != null) {
            to.setException(error);
        } else {
            to.setResult(from.result());
        }
    }
}
