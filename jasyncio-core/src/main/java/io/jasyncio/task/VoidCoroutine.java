package io.jasyncio.task;

/** The body of a task that returns nothing; its task's result is null. */
@FunctionalInterface
public interface VoidCoroutine {
    /** The body: runs in a task and may await; the task's result is null. */
    void run() throws Exception;

    /** This body as a {@link Coroutine} returning null. */
    default Coroutine<Void> asCoroutine() {
        return () -> {
            run();
            return null;
        };
    }
}
