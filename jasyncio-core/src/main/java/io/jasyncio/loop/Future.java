package io.jasyncio.loop;

import io.jasyncio.loop.spi.LoopContract;
import io.jasyncio.util.CreationStack;
import io.jasyncio.util.Throwables;
import io.jasyncio.context.Context;
import io.jasyncio.context.CurrentContext;

import java.util.ArrayList;
import java.util.List;
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
    private static final byte PENDING = 0;
    private static final byte FINISHED = 1; // with a result
    private static final byte FAILED = 2;   // with an exception
    private static final byte CANCELLED = 3;

    final FutureLoop loop;
    private byte state;
    /** By state: the result (FINISHED), the exception (FAILED), the cancel message (CANCELLED); null while pending. */
    private Object outcome;
    /**
     * The done-callbacks, each ready to queue (a {@link Handle}, or an awaiting task queued as its
     * own step): null, one of them, or an {@link ArrayList} of them in the order added. Most
     * futures have exactly one (the awaiting task).
     */
    private Object callbacks;
    /** What few futures need, kept aside so the rest stay small: null until one of them is set. */
    private Rarely rarely;

    /** A pending future bound to {@code loop} (usually made with {@code loop.createFuture()}). */
    public Future(EventLoop loop) {
        this.loop = FutureLoop.of(Objects.requireNonNull(loop, "loop"));
        if (this.loop.getDebug()) {
            rarely().creationStack = CreationStack.capture();
        }
    }

    private Rarely rarely() {
        Rarely r = rarely;
        if (r == null) {
            rarely = r = new Rarely();
        }
        return r;
    }

    /** Where this future was created, most recent frame first; null unless its loop was in debug mode. */
    public StackTraceElement[] creationStack() {
        Rarely r = rarely;
        return r != null ? r.creationStack : null;
    }

    /** The loop this future belongs to. */
    public EventLoop getLoop() {
        return loop;
    }

    /** The loop as the layers above see it (a task makes its step's handle through it). */
    protected final LoopContract loopContract() {
        return loop;
    }

    /**
     * Queues this future, a task, as its own ready-queue entry: the loop runs its step through
     * {@link #runAsStep}. The task layer's call: the caller guarantees it is not queued already
     * (a task is either ready or waiting, never both).
     */
    protected final void enqueueStep() {
        loop.enqueueStep(this);
    }

    /** Whether the future has a result, an exception or was cancelled. */
    public final boolean isDone() {
        return state != PENDING;
    }

    /** Whether the future was cancelled. */
    public final boolean isCancelled() {
        return state == CANCELLED;
    }

    /**
     * The result; throws the future's exception unchanged if it failed, {@link CancelledError}
     * if it was cancelled, {@link InvalidStateException} while pending.
     */
    @SuppressWarnings("unchecked")
    public T result() {
        switch (state) {
            case FINISHED:
                return (T) outcome;
            case FAILED:
                markRetrieved();
                throw Throwables.sneakyThrow((Throwable) outcome);
            case CANCELLED:
                throw makeCancelledError();
            default:
                throw new InvalidStateException("Result is not set.");
        }
    }

    /** The exception (null if it succeeded); throws as {@link #result()} for cancelled/pending. */
    public Throwable exception() {
        if (state == CANCELLED) {
            throw makeCancelledError();
        }
        if (state == PENDING) {
            throw new InvalidStateException("Exception is not set.");
        }
        if (state == FINISHED) {
            return null;
        }
        markRetrieved();
        return (Throwable) outcome;
    }

    /**
     * Completes the future with {@code value} and schedules its done-callbacks; InvalidStateException
     * if it is done already. Not thread-safe: call it on the loop's thread.
     */
    public void setResult(T value) {
        if (DebugThreadCheck.active()) {
            DebugThreadCheck.check(loop, "Future.setResult");
        }
        if (state != PENDING) {
            throw new InvalidStateException(stateName() + ": " + this);
        }
        outcome = value;
        state = FINISHED;
        scheduleCallbacks();
    }

    /**
     * Completes the future with {@code error} and schedules its done-callbacks; InvalidStateException
     * if it is done already. Not thread-safe: call it on the loop's thread.
     */
    public void setException(Throwable error) {
        Objects.requireNonNull(error, "error");
        if (DebugThreadCheck.active()) {
            DebugThreadCheck.check(loop, "Future.setException");
        }
        if (state != PENDING) {
            throw new InvalidStateException(stateName() + ": " + this);
        }
        outcome = error;
        state = FAILED;
        rarely().unretrieved = loop.unretrievedExceptions().track(this, unretrievedMessage(), error, toString(), creationStack());
        scheduleCallbacks();
    }

    /** Cancels a pending future; returns false if it was already done. */
    public boolean cancel() {
        return cancel(null);
    }

    /**
     * Cancels a pending future with {@code message} (asyncio's {@code cancel(msg)}); returns false if
     * it was already done.
     */
    public boolean cancel(String message) {
        if (DebugThreadCheck.active()) {
            DebugThreadCheck.check(loop, "Future.cancel");
        }
        if (state != PENDING) {
            return false;
        }
        state = CANCELLED;
        outcome = message;
        scheduleCallbacks();
        return true;
    }

    /** The message given to {@link #cancel(String)}, or null. */
    public String cancelMessage() {
        return state == CANCELLED ? (String) outcome : null;
    }

    /** A fresh {@link CancelledError} carrying the cancel message, as asyncio raises it. */
    protected CancelledError makeCancelledError() {
        return CancelledError.of(cancelMessage());
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
        DoneCallback<T> delivery = new DoneCallback<>(this, callback, context != null ? context : loop.contextSnapshot());
        if (state != PENDING) {
            loop.enqueue(delivery);
            return;
        }
        addPending(delivery);
    }

    /**
     * Queues {@code task} itself, as its own step, once this future is done: how a task awaits,
     * with no callback object or handle per await. It is ordered with the done-callbacks as if
     * added by {@link #addDoneCallback}. Internal to the task layer: {@code task} runs its step
     * through {@link #runAsStep}, and is not queued anywhere else until that step has run.
     */
    public final void addDoneStep(Future<?> task) {
        Objects.requireNonNull(task, "task");
        if (state != PENDING) {
            loop.enqueueStep(task);
            return;
        }
        addPending(task);
    }

    /**
     * Takes back a task {@link #addDoneStep} added and that is not queued yet (a task that stops
     * waiting here before this future is done); returns whether it was there.
     */
    public final boolean removeDoneStep(Future<?> task) {
        Object cbs = callbacks;
        if (cbs == task) {
            callbacks = null;
            return true;
        }
        return cbs instanceof ArrayList<?> many && many.remove(task);
    }

    /** {@code delivery}: a {@link Handle} or a task queued as its own step. */
    private void addPending(Object delivery) {
        Object cbs = callbacks;
        if (cbs == null) {
            callbacks = delivery;
        } else if (cbs instanceof ArrayList<?> list) {
            @SuppressWarnings("unchecked") ArrayList<Object> many = (ArrayList<Object>) list;
            many.add(delivery);
        } else {
            ArrayList<Object> many = new ArrayList<>(4);
            many.add(cbs);
            many.add(delivery);
            callbacks = many;
        }
    }

    /**
     * One step of a task queued as its own ready-queue entry ({@link #enqueueStep()}):
     * the loop calls it with its thread's context holder, the step enters its own context. Only a
     * task is queued so; other futures throw.
     */
    protected void runAsStep(CurrentContext current) {
        throw new UnsupportedOperationException("only a task is queued as its own step: " + this);
    }

    /**
     * The loop dropped this task's queued step without running it (it closed): the queue no
     * longer holds the task. Only a task is queued so; for other futures, nothing to do.
     */
    protected void stepDropped() {
    }

    /**
     * The task layer's call as this task's eager step starts, when debug mode or an observer is on:
     * true when it is the outermost eager step inside the handle the loop runs, to be timed and
     * reported with it. Pass the answer to {@link #eagerStepFinished}.
     */
    protected final boolean eagerStepStarting() {
        return loop instanceof CoreEventLoop core && core.eagerStepStarting(this);
    }

    /** The task layer's call as the eager step {@link #eagerStepStarting} was asked about returns. */
    protected final void eagerStepFinished(boolean outermost) {
        if (loop instanceof CoreEventLoop core) {
            core.eagerStepFinished(this, outermost);
        }
    }

    /**
     * A handle that runs the same step as {@link #runAsStep}: what observers, slow-callback
     * reports and failure reports see for a queued task (made only for them).
     */
    protected Handle stepAsHandle() {
        throw new UnsupportedOperationException("only a task is queued as its own step: " + this);
    }

    /** Removes every registration of {@code callback}; returns how many there were. */
    public int removeDoneCallback(Consumer<? super Future<T>> callback) {
        Object cbs = callbacks;
        if (cbs instanceof DoneCallback<?> one) {
            if (one.consumer == callback) {
                callbacks = null;
                return 1;
            }
            return 0;
        }
        if (!(cbs instanceof ArrayList<?> many)) {
            return 0;
        }
        int before = many.size();
        many.removeIf(h -> h instanceof DoneCallback<?> d && d.consumer == callback);
        return before - many.size();
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
        Rarely r = rarely();
        Object by = r.awaitedBy;
        if (by == null) {
            r.awaitedBy = waiter;
        } else if (by instanceof Future<?> one) {
            if (one != waiter) {
                List<Future<?>> two = new ArrayList<>(2);
                two.add(one);
                two.add(waiter);
                r.awaitedBy = two;
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
        Rarely r = rarely;
        Object by = r != null ? r.awaitedBy : null;
        if (by == waiter) {
            r.awaitedBy = null;
        } else if (by instanceof List<?> many) {
            many.remove(waiter);
            if (many.isEmpty()) {
                r.awaitedBy = null;
            }
        }
    }

    /** The waiters {@link #addAwaitedBy} recorded and that were not discarded, in the order recorded. */
    public final List<Future<?>> awaitedBy() {
        Rarely r = rarely;
        Object by = r != null ? r.awaitedBy : null;
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
        Object cbs = callbacks;
        if (cbs == null) {
            return;
        }
        callbacks = null;
        if (cbs instanceof ArrayList<?> many) {
            for (Object each : many) {
                enqueueDelivery(each);
            }
        } else {
            enqueueDelivery(cbs);
        }
    }

    private void enqueueDelivery(Object delivery) {
        if (delivery instanceof Handle h) {
            loop.enqueue(h);
        } else {
            loop.enqueueStep((Future<?>) delivery);
        }
    }

    private void markRetrieved() {
        Rarely r = rarely;
        UnretrievedExceptions.Report report = r != null ? r.unretrieved : null;
        if (report != null) {
            r.unretrieved = null;
            report.retrieved();
        }
    }

    /** How this future names itself in "never retrieved" reports. */
    protected String unretrievedMessage() {
        return "Future exception was never retrieved";
    }

    private String stateName() {
        return state == PENDING ? "PENDING" : state == CANCELLED ? "CANCELLED" : "FINISHED";
    }

    /** The fields few futures need (debug mode, failures, structured waits): one object, made on first use. */
    private static final class Rarely {
        /** Where the future was created (debug mode only). */
        StackTraceElement[] creationStack;
        /** Set while an exception is unretrieved: reports the loss unless it is retrieved first. */
        UnretrievedExceptions.Report unretrieved;
        /** Who awaits the future through a structure that awaits on their behalf: null, one Future, or a list. */
        Object awaitedBy;
    }

    @Override
    public String toString() {
        String s = "<" + getClass().getSimpleName() + " " + stateName().toLowerCase();
        if (state == FINISHED) {
            s += " result=" + outcome;
        } else if (state == FAILED) {
            s += " exception=" + outcome;
        }
        return s + CreationStack.createdAt(creationStack()) + ">";
    }

    /**
     * The queued delivery of one done-callback: its own handle and runnable in one object (one
     * allocation per callback, not two). It names the callback in reports.
     */
    private static final class DoneCallback<T> extends Handle implements Runnable, Handle.Describable {
        private final Future<T> future;
        final Consumer<? super Future<T>> consumer;

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
}
