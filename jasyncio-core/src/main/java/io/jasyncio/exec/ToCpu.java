package io.jasyncio.exec;

import io.jasyncio.context.Context;
import io.jasyncio.loop.DefaultExecutor;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.task.Tasks;

import java.util.concurrent.Callable;

/**
 * {@link ToThread}'s counterpart for CPU-bound work: run a call on the running loop's CPU
 * executor ({@link DefaultExecutor#cpuThreads()}, one platform thread per core, the rest queued)
 * and await its result. The semantics are {@code to_thread}'s: a copy of the caller's
 * {@link Context}, no interruption when the awaiting task is cancelled (the result is dropped),
 * refused after the default executor's shutdown.
 */
public final class ToCpu {
    private ToCpu() {
    }

    /** Runs {@code fn} on the CPU executor, in a copy of the current context; returns its result. */
    public static <T> T call(Callable<T> fn) {
        EventLoop loop = EventLoops.getRunningLoop();
        Context context = Context.copyCurrent();
        return Tasks.await(loop.runInExecutor(DefaultExecutor.forCpuWork(loop), () -> context.call(fn)));
    }
}
