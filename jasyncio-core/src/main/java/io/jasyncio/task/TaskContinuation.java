package io.jasyncio.task;

import jdk.internal.vm.Continuation;

/**
 * One task's body on a continuation; remembers its task so {@link Task#current()} can find it from
 * inside. Its step is {@link Continuation#run()} itself (the loop mounts it directly).
 */
final class TaskContinuation extends Continuation implements TaskBody {
    final Task<?> task;

    TaskContinuation(Task<?> task, Runnable code) {
        super(ContinuationEngine.SCOPE, code);
        this.task = task;
    }

    @Override
    public Task<?> task() {
        return task;
    }

    @Override
    public boolean resume() {
        run();
        return isDone();
    }

    @Override
    public void suspend() {
        boolean yielded;
        try {
            yielded = Continuation.yield(ContinuationEngine.SCOPE);
        } catch (IllegalStateException pinned) {
            throw new IllegalStateException("a task cannot suspend here: it holds a monitor (synchronized) "
                    + "or runs inside native code; await outside the synchronized block", pinned);
        }
        if (!yielded) {
            throw new IllegalStateException("a task could not suspend (its continuation is pinned)");
        }
    }

    @Override
    public StackTraceElement[] suspendedStack() {
        if (isDone()) {
            return new StackTraceElement[0];
        }
        try {
            return getStackTrace(); // walks the unmounted continuation's frozen frames
        } catch (IllegalStateException mounted) {
            return new StackTraceElement[0]; // it is running (an eager start nests it): no suspended frames
        }
    }
}
