package io.jasyncio.interop;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The future {@link ThreadsafeCoroutines#submit} returns: a {@link CompletableFuture} whose
 * blocking waits ({@code get}, {@code join}) refuse to run on the loop's own turn while it is
 * pending. The loop would have to run the task to complete it, but its thread is the one waiting:
 * a deadlock that would show as nothing at all. Waiting on a future that is already done is fine;
 * the futures derived from this one ({@code thenApply}...) are plain ones.
 */
final class OffLoopFuture<T> extends CompletableFuture<T> {
    private final EventLoop loop;

    OffLoopFuture(EventLoop loop) {
        this.loop = loop;
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        refuseOnTheLoop("get()");
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        refuseOnTheLoop("get(timeout)");
        return super.get(timeout, unit);
    }

    @Override
    public T join() {
        refuseOnTheLoop("join()");
        return super.join();
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }

    /** On the loop's thread (or a task body of it, on the portable engine) a pending future cannot complete. */
    private void refuseOnTheLoop(String wait) {
        if (isDone()) {
            return;
        }
        if (loop.thread() == Thread.currentThread() || EventLoops.runningLoopOrNull() == loop) {
            throw new IllegalStateException("runCoroutineThreadsafe(...)." + wait + " called on the thread of the loop "
                    + "that must run the coroutine: it would wait forever (the loop cannot run the task while its "
                    + "thread waits). In a task, await the coroutine (or await(future)); block with " + wait
                    + " only on another thread.");
        }
    }
}
