package io.jasyncio.task;

/**
 * The portable engine: each task body runs on a virtual thread of its own and hands control back
 * and forth with the thread that steps it (see {@link ThreadBody}). Needs no JVM flag on any
 * JDK 21+; each hand-off costs a park and an unpark instead of a continuation switch.
 */
final class ThreadEngine implements TaskEngine {
    /** The task whose body runs on this (virtual) thread; set once, when the body thread starts. */
    static final ThreadLocal<Task<?>> TASK_OF_THREAD = new ThreadLocal<>();

    @Override
    public String name() {
        return "threads";
    }

    @Override
    public TaskBody newBody(Task<?> task, Runnable code) {
        return new ThreadBody(task, code);
    }

    @Override
    public Task<?> current() {
        return TASK_OF_THREAD.get();
    }
}
