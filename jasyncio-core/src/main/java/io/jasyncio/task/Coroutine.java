package io.jasyncio.task;

/**
 * The body of a task that returns a value. It may throw anything: a failure completes the task
 * with that exact exception object (see {@link io.jasyncio.loop.Future} for the policy).
 */
@FunctionalInterface
public interface Coroutine<T> {
    /** The body: runs in a task, may await, and returns the task's result. */
    T run() throws Exception;
}
