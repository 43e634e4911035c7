package io.jasyncio.task;

import java.lang.ref.WeakReference;

/**
 * A task's body entry point and, the same object, its entry in the loop's {@link TaskRegistry}:
 * a weak reference to the task, so the registry does not keep a pending task alive (asyncio's
 * {@code _scheduled_tasks} is a WeakSet). The engine runs it once, as the body's first step.
 *
 * <p>Nothing here may reach the task strongly: the registry holds this object. The task stays
 * reachable while it runs, while it is queued (the ready queue holds the task itself), and while
 * the future it awaits is reachable (the future's callbacks hold the task).
 */
class TaskEntry extends WeakReference<Task<?>> implements Runnable {
    /** Where the registry keeps this entry; -1 when it is not registered. */
    int slot = -1;

    TaskEntry(Task<?> task) {
        super(task);
    }

    /** The body: the engine calls it on its first step, when the task is reachable (the loop is stepping it). */
    @Override
    public final void run() {
        get().runBody();
    }

    /** The task finished: it leaves the registry. */
    void finished() {
    }

    /** The task got a new name. */
    void renamed(String name) {
    }

    /** A debug-mode task's entry, with the watch that reports it if it is collected while pending. */
    static final class Watched extends TaskEntry {
        private final Task.PendingWatch watch;

        Watched(Task<?> task, Task.PendingWatch watch) {
            super(task);
            this.watch = watch;
        }

        @Override
        void finished() {
            watch.done = true;
        }

        @Override
        void renamed(String name) {
            watch.name = name;
        }
    }
}
