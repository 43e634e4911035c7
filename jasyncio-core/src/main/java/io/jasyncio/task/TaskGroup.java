package io.jasyncio.task;

import io.jasyncio.context.Context;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.util.Throwables;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Structured concurrency, as asyncio's {@code TaskGroup}: the tasks created in the group are
 * done when {@link #run} returns.
 *
 * <pre>{@code
 * TaskGroup.run(tg -> {
 *     tg.createTask(() -> fetch("a"));
 *     tg.createTask(() -> fetch("b"));
 * });   // both are done here
 * }</pre>
 *
 * <p>The first child that fails cancels its siblings and the body (the parent task is cancelled
 * at its current await); the group then waits for every child and raises one
 * {@link ExceptionGroup} ("unhandled errors in a TaskGroup") holding every failure in the order
 * it happened, the body's own failure last. A cancellation of the parent from outside cancels the
 * children too, and leaves as {@link CancelledError}, not wrapped, unless a child also failed:
 * real errors take priority. A {@link VirtualMachineError} (out of memory, stack overflow) is
 * raised as itself, as asyncio does with {@code KeyboardInterrupt} and {@code SystemExit}.
 *
 * <p>The body is a lambda because the group must see the exception the body threw; a
 * try-with-resources block cannot.
 */
public final class TaskGroup {
    private static final String MESSAGE = "unhandled errors in a TaskGroup";

    /** The body of a group: it creates tasks with {@code tg.createTask} and may await too. */
    @FunctionalInterface
    public interface Body {
        void run(TaskGroup tg) throws Exception;
    }

    /** A body that returns a value, typically the tasks it created: see {@link #call}. */
    @FunctionalInterface
    public interface ValueBody<T> {
        T call(TaskGroup tg) throws Exception;
    }

    private final EventLoop loop;
    private final Task<?> parent;
    // Only the tasks not done yet, as asyncio's _tasks: a long-lived group forgets finished ones.
    private final Set<Task<?>> tasks = new LinkedHashSet<>();
    private final List<Throwable> errors = new ArrayList<>();
    private final Consumer<Future<?>> onTaskDone = this::onTaskDone;
    private boolean exiting;
    private boolean aborting;
    private boolean parentCancelRequested;
    private Throwable baseError;
    private Future<Void> allDone;

    private TaskGroup(Task<?> parent) {
        this.parent = parent;
        this.loop = parent.getLoop();
    }

    /**
     * Runs {@code body} with a new group, then waits for every task it created. Throws the
     * {@link ExceptionGroup} of the failures, or the parent's own {@link CancelledError}. (It
     * returns nothing, so that {@code createTask(() -> TaskGroup.run(...))} stays a void body;
     * {@link #call} returns a value.)
     */
    public static void run(Body body) {
        call(tg -> {
            body.run(tg);
            return null;
        });
    }

    /**
     * As {@link #run}, returning what {@code body} returned once every task is done: the tasks
     * the caller wants to read, with their types, without a holder declared outside the lambda
     * (or the group itself, {@code return tg;}, whose {@link #tasks()} is then empty).
     * <pre>{@code
     * Task<String> page = TaskGroup.call(tg -> {
     *     tg.createTask(() -> warmCache());
     *     return tg.createTask(() -> fetch(url));
     * });
     * String text = page.result();   // done: the group waited for it
     * }</pre>
     */
    public static <T> T call(ValueBody<T> body) {
        TaskGroup group = enter();
        T value = null;
        Throwable bodyError = null;
        try {
            value = body.call(group);
        } catch (Throwable t) {
            bodyError = t;
        }
        group.exit(bodyError);
        return value;
    }

    private static TaskGroup enter() {
        Task<?> parent = Task.current();
        if (parent == null) {
            throw new IllegalStateException("TaskGroup must be used inside a task");
        }
        return new TaskGroup(parent);
    }

    /**
     * The tasks of this group still running, in creation order. A finished task leaves the group
     * (asyncio keeps only pending ones), so a group that lives long does not hold every task it
     * ever made; keep the {@code Task}s {@code createTask} returns to read their results.
     */
    public List<Task<?>> tasks() {
        return List.copyOf(tasks);
    }

    // ---- creating tasks ---------------------------------------------------------------------

    public <T> Task<T> createTask(Coroutine<T> body) {
        return createTask(body, null, null);
    }

    public <T> Task<T> createTask(Coroutine<T> body, String name) {
        return createTask(body, name, null);
    }

    public Task<Void> createTask(VoidCoroutine body) {
        return createTask(body.asCoroutine(), null, null);
    }

    public Task<Void> createTask(VoidCoroutine body, String name) {
        return createTask(body.asCoroutine(), name, null);
    }

    /** A child task running {@code body}; {@code context} null means a copy of the current one. */
    public <T> Task<T> createTask(Coroutine<T> body, String name, Context context) {
        checkAccepting();
        return adopt(Tasks.create(loop, body, name, context));
    }

    /**
     * A child task whose first step runs now, inside this call, until its first real suspension
     * (asyncio 3.12's eager tasks, as a TaskGroup makes them under the eager task factory). A
     * body that never suspends is done when this returns; one that fails at once fails the group
     * as any child does.
     */
    public <T> Task<T> createEagerTask(Coroutine<T> body) {
        return createEagerTask(body, null, null);
    }

    public Task<Void> createEagerTask(VoidCoroutine body) {
        return createEagerTask(body.asCoroutine(), null, null);
    }

    /** As {@link #createEagerTask(Coroutine)}, named, in {@code context} (null: a copy of the current one). */
    public <T> Task<T> createEagerTask(Coroutine<T> body, String name, Context context) {
        checkAccepting();
        return adopt(Tasks.createEager(loop, body, name, context));
    }

    private void checkAccepting() {
        if (exiting && tasks.isEmpty()) {
            throw new IllegalStateException("TaskGroup " + this + " is finished");
        }
        if (aborting) {
            throw new IllegalStateException("TaskGroup " + this + " is shutting down");
        }
    }

    /** Makes {@code task} a child: waited for at the end, its failure the group's (at once if it is done already). */
    private <T> Task<T> adopt(Task<T> task) {
        if (task.isDone()) {
            onTaskDone(task);
        } else {
            tasks.add(task);
            task.addAwaitedBy(parent); // the parent awaits its children at the end of the block (call graphs)
            task.addDoneCallback(onTaskDone);
        }
        return task;
    }

    // ---- the end of the block ---------------------------------------------------------------

    /** The group's exit: wait for the children, then decide what leaves the block. */
    private void exit(Throwable bodyError) {
        exiting = true;
        if (isBaseError(bodyError) && baseError == null) {
            baseError = bodyError;
        }
        CancelledError propagateCancellation = bodyError instanceof CancelledError c ? c : null;
        if (bodyError != null && !aborting) {
            // The parent is being cancelled, or the body failed: the children must stop too.
            abort();
        }
        // A loop, because the wait itself can be cancelled again and again from outside.
        while (!tasks.isEmpty()) {
            if (allDone == null) {
                allDone = loop.createFuture();
            }
            try {
                Tasks.await(allDone);
            } catch (CancelledError cancelled) {
                if (!aborting) {
                    // The parent was cancelled from outside while the children still run.
                    propagateCancellation = cancelled;
                    abort();
                }
            }
            allDone = null;
        }
        if (baseError != null) {
            throw Throwables.sneakyThrow(baseError);
        }
        if (parentCancelRequested && parent.uncancel() == 0) {
            // Our own cancellation of the parent, now balanced: it must not leave the block.
            propagateCancellation = null;
        }
        if (propagateCancellation != null && errors.isEmpty()) {
            throw propagateCancellation;
        }
        if (bodyError != null && !(bodyError instanceof CancelledError)) {
            errors.add(bodyError);
        }
        if (!errors.isEmpty()) {
            if (parent.cancelling() > 0) {
                // Cancelled from outside too: re-deliver that request (asyncio 3.13) while keeping its count.
                parent.uncancel();
                parent.cancel();
            }
            throw new ExceptionGroup(MESSAGE, errors);
        }
    }

    private void abort() {
        aborting = true;
        for (Task<?> t : List.copyOf(tasks)) {
            if (!t.isDone()) {
                t.cancel();
            }
        }
    }

    private void onTaskDone(Future<?> done) {
        Task<?> task = (Task<?>) done;
        tasks.remove(task);
        task.discardAwaitedBy(parent);
        if (allDone != null && tasks.isEmpty() && !allDone.isDone()) {
            allDone.setResult(null);
        }
        if (task.isCancelled()) {
            return;
        }
        Throwable error = task.exception();
        if (error == null) {
            return;
        }
        errors.add(error);
        if (isBaseError(error) && baseError == null) {
            baseError = error;
        }
        if (parent.isDone()) {
            Map<String, Object> context = new LinkedHashMap<>();
            context.put("message", "Task " + task + " has errored out but its parent task " + parent
                    + " is already completed");
            context.put("exception", error);
            context.put("task", task);
            loop.callExceptionHandler(context);
            return;
        }
        if (!aborting && !parentCancelRequested) {
            // Stop the body where it waits; exit() balances this request with uncancel().
            abort();
            parentCancelRequested = true;
            parent.cancel();
        }
    }

    private static boolean isBaseError(Throwable t) {
        return t instanceof VirtualMachineError;
    }

    @Override
    public String toString() {
        return "<TaskGroup tasks=" + tasks.size() + (errors.isEmpty() ? "" : " errors=" + errors.size())
                + (aborting ? " cancelling" : exiting ? " exiting" : " entered") + ">";
    }
}
