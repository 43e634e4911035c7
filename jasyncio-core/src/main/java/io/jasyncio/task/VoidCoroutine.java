package io.jasyncio.task;

/** The body of a task that returns nothing; its task's result is null. */
@FunctionalInterface
public interface VoidCoroutine {
    void run() throws Exception;

    /** This body as a {@link Coroutine} returning null. */
    default Coroutine<Void> asCoroutine() {
        return () -> {
            run();
            return null;
        };
    }
}
