package io.jasyncio.loop;

import io.jasyncio.util.CreationStack;
import io.jasyncio.util.Throwables;
import io.jasyncio.context.Context;

import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A result that arrives later, as asyncio's {@code Future}: single-threaded (use it on its
 * loop's thread), with done-callbacks that are always scheduled with {@code callSoon}, never run
 * inline, each in the context that was current when it was added.
 *
 * <p>Checked-exception policy: {@link #result()} throws the exact object passed to
 * {@link #setException}, checked or not (rethrown unchanged, identity and stack preserved), so
 * the awaiting code sees what the producer threw. It is declared unchecked; catch
 * {@code Exception} and test with {@code instanceof} when you need a checked type.
 */
public class Future<T> {
    private static final int PENDING = 0;
    private static final int FINISHED = 1;
    private static final int CANCELLED = 2;
    private static final Cleaner CLEANER = Cleaner.create();

    final LoopContract loop;
    /** Where this future was created (debug mode only, else null): shown in every report about it. */
    private final StackTraceElement[] creationStack;
    private int state;
    private T result;
    private Throwable exception;
    private String cancelMessage;
    /** Set while an exception is unretrieved; its cleaning action reports the loss. */
    private UnretrievedException unretrieved;

    // The first done-callback lives in fields: most futures have exactly one (the awaiting task).
    // A callback is a Consumer, or a Handle queued as it is (a task's wake-up, see addDoneHandle).
    private Object firstCallback;
    private Object firstSnapshot;
    private List<Object> moreCallbacks; // pairs: callback, context snapshot
    /** Who awaits this future through a structure that awaits on their behalf: null, one Future, or a list. */
    private Object awaitedBy;

    public Future(EventLoop loop) {
        this.loop = LoopContract.of(Objects.requireNonNull(loop, "loop"));
        this.creationStack = this.loop.getDebug() ? CreationStack.capture() : null;
    }

    /** Where this future was created, most recent frame first; null unless its loop was in debug mode. */
    public StackTraceElement[] creationStack() {
        return creationStack;
    }

    public EventLoop getLoop() {
        return loop;
    }

    /** The loop as the layers above see it (a task queues its step through it). */
    protected final LoopContract loopContract() {
        return loop;
    }

    public final boolean isDone() {
        return state != PENDING;
    }

    public final boolean isCancelled() {
        return state == CANCELLED;
    }

    /**
     * The result; throws the future's exception unchanged if it failed, {@link CancelledError}
     * if it was cancelled, {@link InvalidStateException} while pending.
     */
    public T result() {
        if (state == CANCELLED) {
            throw makeCancelledError();
        }
        if (state == PENDING) {
            throw new InvalidStateException("Result is not set.");
        }
        if (exception != null) {
            markRetrieved();
            throw Throwables.sneakyThrow(exception);
        }
        return result;
    }

    /** The exception (null if it succeeded); throws as {@link #result()} for cancelled/pending. */
    public Throwable exception() {
        if (state == CANCELLED) {
            throw makeCancelledError();
        }
        if (state == PENDING) {
            throw new InvalidStateException("Exception is not set.");
        }
        markRetrieved();
        return exception;
    }

    public void setResult(T value) {
        if (state != PENDING) {
            throw new InvalidStateException(stateName() + ": " + this);
        }
        result = value;
        state = FINISHED;
        scheduleCallbacks();
    }

    public void setException(Throwable error) {
        Objects.requireNonNull(error, "error");
        if (state != PENDING) {
            throw new InvalidStateException(stateName() + ": " + this);
        }
        exception = error;
        state = FINISHED;
        unretrieved = new UnretrievedException(loop, error, unretrievedMessage(),
                creationStack != null ? toString() : null, creationStack);
        unretrieved.cleanable = CLEANER.register(this, unretrieved);
        scheduleCallbacks();
    }

    /** Cancels a pending future; returns false if it was already done. */
    public boolean cancel() {
        return cancel(null);
    }

    public boolean cancel(String message) {
        if (state != PENDING) {
            return false;
        }
        state = CANCELLED;
        cancelMessage = message;
        scheduleCallbacks();
        return true;
    }

    /** The message given to {@link #cancel(String)}, or null. */
    public String cancelMessage() {
        return cancelMessage;
    }

    /** A fresh {@link CancelledError} carrying the cancel message, as asyncio raises it. */
    protected CancelledError makeCancelledError() {
        return CancelledError.of(cancelMessage);
    }

    /**
     * A {@link java.util.concurrent.CompletableFuture} that this future's outcome completes (on
     * the loop thread: its non-async dependents run there), for handing a result to Java code.
     * Cancelling it, from any thread, cancels this future. Call on the loop's thread.
     */
    public java.util.concurrent.CompletableFuture<T> toCompletableFuture() {
        java.util.concurrent.CompletableFuture<T> view = new java.util.concurrent.CompletableFuture<>();
        CompletableFutureBridge.chain(this, view);
        return view;
    }

    /** Runs {@code callback} (via callSoon) once this future is done. */
    public void addDoneCallback(Consumer<? super Future<T>> callback) {
        addDoneCallback(callback, null);
    }

    /** As {@link #addDoneCallback(Consumer)}, running in {@code context} when it is not null. */
    public void addDoneCallback(Consumer<? super Future<T>> callback, Context context) {
        Objects.requireNonNull(callback, "callback");
        if (state != PENDING) {
            scheduleCallback(callback, context != null ? context : loop.contextSnapshot());
            return;
        }
        addPending(callback, context != null ? context : loop.contextSnapshot());
    }

    /**
     * Queues {@code wakeup} itself once this future is done, with no callback object or new
     * handle per completion: how a task awaits (its step handle, reused for every step). It is
     * ordered with the done-callbacks as if added by {@link #addDoneCallback}. The caller
     * guarantees the handle is not queued anywhere else until it has run.
     */
    public void addDoneHandle(Handle wakeup) {
        Objects.requireNonNull(wakeup, "wakeup");
        if (state != PENDING) {
            loop.enqueue(wakeup);
            return;
        }
        addPending(wakeup, null);
    }

    private void addPending(Object callback, Object context) {
        if (firstCallback == null && moreCallbacks == null) {
            firstCallback = callback;
            firstSnapshot = context;
        } else {
            if (moreCallbacks == null) {
                moreCallbacks = new ArrayList<>(4);
            }
            moreCallbacks.add(callback);
            moreCallbacks.add(context);
        }
    }

    /** Removes every registration of {@code callback}; returns how many there were. */
    public int removeDoneCallback(Consumer<? super Future<T>> callback) {
        int removed = 0;
        if (firstCallback == callback) {
            firstCallback = null;
            firstSnapshot = null;
            removed++;
        }
        if (moreCallbacks != null) {
            for (int i = moreCallbacks.size() - 2; i >= 0; i -= 2) {
                if (moreCallbacks.get(i) == callback) {
                    moreCallbacks.remove(i + 1);
                    moreCallbacks.remove(i);
                    removed++;
                }
            }
        }
        return removed;
    }

    /**
     * Records that {@code waiter} (a task, usually) awaits this future through a structure that
     * awaits on its behalf, as asyncio's {@code future_add_to_awaited_by}: a TaskGroup's children
     * are awaited by its parent task, gather's and shield's futures by the task that called them.
     * A task's own {@code await} needs no record (the task knows what it waits on). Follow it with
     * {@link #discardAwaitedBy} once the wait is over. One waiter costs no allocation.
     */
    public final void addAwaitedBy(Future<?> waiter) {
        Objects.requireNonNull(waiter, "waiter");
        Object by = awaitedBy;
        if (by == null) {
            awaitedBy = waiter;
        } else if (by instanceof Future<?> one) {
            if (one != waiter) {
                List<Future<?>> two = new ArrayList<>(2);
                two.add(one);
                two.add(waiter);
                awaitedBy = two;
            }
        } else {
            @SuppressWarnings("unchecked") List<Future<?>> many = (List<Future<?>>) by;
            if (!many.contains(waiter)) {
                many.add(waiter);
            }
        }
    }

    /** Forgets the record {@link #addAwaitedBy} made (asyncio's {@code future_discard_from_awaited_by}). */
    public final void discardAwaitedBy(Future<?> waiter) {
        Object by = awaitedBy;
        if (by == waiter) {
            awaitedBy = null;
        } else if (by instanceof List<?> many) {
            many.remove(waiter);
            if (many.isEmpty()) {
                awaitedBy = null;
            }
        }
    }

    /** The waiters {@link #addAwaitedBy} recorded and that were not discarded, in the order recorded. */
    public final List<Future<?>> awaitedBy() {
        Object by = awaitedBy;
        if (by == null) {
            return List.of();
        }
        if (by instanceof Future<?> one) {
            return List.of(one);
        }
        @SuppressWarnings("unchecked") List<Future<?>> many = (List<Future<?>>) by;
        return List.copyOf(many);
    }

    private void scheduleCallbacks() {
        if (firstCallback != null) {
            Object cb = firstCallback;
            Object ctx = firstSnapshot;
            firstCallback = null;
            firstSnapshot = null;
            scheduleCallback(cb, ctx);
        }
        if (moreCallbacks != null) {
            List<Object> more = moreCallbacks;
            moreCallbacks = null;
            for (int i = 0; i < more.size(); i += 2) {
                scheduleCallback(more.get(i), more.get(i + 1));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void scheduleCallback(Object callback, Object context) {
        if (callback instanceof Handle wakeup) {
            loop.enqueue(wakeup);
            return;
        }
        loop.enqueue(new DoneCallback<>(this, (Consumer<? super Future<T>>) callback, context));
    }

    private void markRetrieved() {
        UnretrievedException u = unretrieved;
        if (u != null) {
            unretrieved = null;
            u.retrieved = true;
            u.cleanable.clean(); // retrieved: nothing to report, just unregister
        }
    }

    /** How this future names itself in "never retrieved" reports. */
    protected String unretrievedMessage() {
        return "Future exception was never retrieved";
    }

    private String stateName() {
        return state == PENDING ? "PENDING" : state == CANCELLED ? "CANCELLED" : "FINISHED";
    }

    @Override
    public String toString() {
        String s = "<" + getClass().getSimpleName() + " " + stateName().toLowerCase();
        if (state == FINISHED) {
            s += exception != null ? " exception=" + exception : " result=" + result;
        }
        return s + CreationStack.createdAt(creationStack) + ">";
    }

    /**
     * The queued delivery of one done-callback: its own handle and runnable in one object (one
     * allocation per callback, not two). It names the callback in reports.
     */
    private static final class DoneCallback<T> extends Handle implements Runnable, Handle.Describable {
        private final Future<T> future;
        private final Consumer<? super Future<T>> consumer;

        /** {@code context}: an explicit Context or a snapshot, as a handle keeps either. */
        DoneCallback(Future<T> future, Consumer<? super Future<T>> consumer, Object context) {
            super(future.loop, null, context, null);
            this.callback = this;
            this.future = future;
            this.consumer = consumer;
        }

        @Override
        public void run() {
            consumer.accept(future);
        }

        @Override
        public String describe() {
            if (consumer instanceof Handle.Describable d) {
                return d.describe(); // a callback that names itself (e.g. a task's) keeps its name in reports
            }
            return "done-callback " + Handle.describe(consumer) + " of " + future;
        }
    }

    /**
     * What a failed future leaves behind for the cleaner: enough to report an exception that
     * nobody retrieved, without keeping the future reachable.
     */
    private static final class UnretrievedException implements Runnable {
        final LoopContract loop;
        final Throwable exception;
        final String message;
        /** Debug mode only: the future as it was when it failed, and where it was created. */
        final String description;
        final StackTraceElement[] creationStack;
        Cleaner.Cleanable cleanable;
        volatile boolean retrieved;

        UnretrievedException(LoopContract loop, Throwable exception, String message, String description,
                             StackTraceElement[] creationStack) {
            this.loop = loop;
            this.exception = exception;
            this.message = message;
            this.description = description;
            this.creationStack = creationStack;
        }

        @Override
        public void run() {
            if (retrieved) {
                return;
            }
            retrieved = true;
            Map<String, Object> context = new LinkedHashMap<>();
            context.put("message", message);
            context.put("exception", exception);
            if (description != null) {
                context.put("future", description);
            }
            if (creationStack != null) {
                context.put("source_traceback", creationStack);
            }
            loop.reportUnretrieved(context);
        }
    }
}
