package io.jasyncio.task;

import io.jasyncio.loop.Handle;

/**
 * One task's body as its {@link TaskEngine} runs it. The loop side calls {@link #resume()}; the
 * body itself calls {@link #suspend()}. Exactly one of the two sides runs at any moment, and each
 * hand-off happens-before what the other side does next, so task code stays single-threaded.
 *
 * <p>{@link #run()} is one step: the loop runs it for the task queued as itself, and it is the
 * callback of the handle observers and reports see for that step, which names the task.
 */
interface TaskBody extends Runnable, Handle.Describable {
    /** The task this body runs. */
    Task<?> task();

    /** One step, as the loop runs it: {@link #resume()}, the outcome left to the body's own end. */
    @Override
    void run();

    @Override
    default String describe() {
        return task().toString();
    }

    /**
     * Starts the body, or resumes it where it suspended, and returns when it suspends again or
     * finishes: true once it has finished. Called by the loop's step (or by an eager start).
     */
    boolean resume();

    /**
     * Called from inside the body: hands control back to whoever called {@link #resume()} and
     * returns when the body is resumed. Throws {@link IllegalStateException} if the body cannot
     * suspend here.
     */
    void suspend();

    /**
     * The body's frames where it is suspended, most recent first (empty before it starts, once it
     * has finished, or while it runs on another thread). Call on the loop's thread, between steps.
     */
    StackTraceElement[] suspendedStack();
}
