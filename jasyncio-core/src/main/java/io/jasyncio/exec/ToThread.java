package io.jasyncio.exec;

import io.jasyncio.context.Context;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.task.Tasks;

import java.util.concurrent.Callable;

/**
 * asyncio's {@code to_thread}: run a blocking call on the running loop's default executor and
 * await its result, so the loop keeps turning meanwhile.
 *
 * <p>Unlike a bare {@code runInExecutor}, the call runs in a copy of the caller's {@link Context}:
 * the {@code ContextVar} values the calling task sees are visible inside it (changes it makes stay
 * in the copy). Cancelling the awaiting task does not interrupt the worker (a thread is not
 * cancellable at an arbitrary point); the call runs to its end and its result is dropped.
 */
public final class ToThread {
    private ToThread() {
    }

    /** Runs {@code fn} on the default executor, in a copy of the current context; returns its result. */
    public static <T> T call(Callable<T> fn) {
        EventLoop loop = EventLoops.getRunningLoop();
        Context context = Context.copyCurrent();
        return Tasks.await(loop.runInExecutor(null, () -> context.call(fn)));
    }
}
