package io.jasyncio.task;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.TimerHandle;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The futures' outcomes in the order they complete, as asyncio's {@code as_completed}.
 *
 * <pre>{@code
 * for (Future<String> next : asCompleted(tasks, 5.0)) {
 *     String first = await(next);   // the earliest result not yet taken
 * }
 * }</pre>
 *
 * <p>Each {@link #next()} returns at once a future that stands for "the next one to finish": the
 * i-th future handed out takes the outcome of the i-th completion (result, exception, or
 * cancellation). When the timeout passes, every slot not yet filled fails with
 * {@link TimeoutException}; the inputs themselves are not cancelled. Duplicates count once.
 */
public final class AsCompleted<T> implements Iterable<Future<T>>, Iterator<Future<T>> {
    private final EventLoop loop;
    private final Set<Future<? extends T>> todo;
    private final int total;
    private final ArrayDeque<Future<? extends T>> completed = new ArrayDeque<>(); // finished, not yet handed over
    private final ArrayDeque<Future<T>> waitingSlots = new ArrayDeque<>();       // handed out, not yet filled
    private final Consumer<Future<?>> onCompletion = this::onCompletion;
    private TimerHandle timer;
    private boolean timedOut;
    private int handedOut;

    private AsCompleted(EventLoop loop, Set<Future<? extends T>> todo) {
        this.loop = loop;
        this.todo = todo;
        this.total = todo.size();
    }

    /** Iterates {@code futures} in completion order, for at most {@code timeout} seconds (null: no limit). */
    public static <T> AsCompleted<T> asCompleted(Collection<? extends Future<? extends T>> futures, Double timeout) {
        EventLoop loop = EventLoops.getRunningLoop();
        AsCompleted<T> it = new AsCompleted<>(loop, new LinkedHashSet<>(futures));
        for (Future<? extends T> f : it.todo) {
            if (f.getLoop() != loop) {
                throw new IllegalArgumentException("asCompleted: " + f + " belongs to another loop");
            }
            f.addDoneCallback(it.onCompletion);
        }
        if (!it.todo.isEmpty() && timeout != null) {
            it.timer = loop.callLater(timeout, it::onTimeout);
        }
        return it;
    }

    /** As {@link #asCompleted(Collection, Double)} over coroutines, each made a task on the running loop. */
    @SafeVarargs
    public static <T> AsCompleted<T> asCompleted(Double timeout, Coroutine<? extends T> first, Coroutine<? extends T>... rest) {
        return asCompleted(CoroutineTasks.of(first, rest), timeout);
    }

    @Override
    public Iterator<Future<T>> iterator() {
        return this;
    }

    @Override
    public boolean hasNext() {
        return handedOut < total;
    }

    /** A future for the next completion; await it. */
    @Override
    public Future<T> next() {
        if (!hasNext()) {
            throw new NoSuchElementException("asCompleted: all " + total + " futures were handed out");
        }
        handedOut++;
        Future<T> slot = loop.createFuture();
        if (!completed.isEmpty()) {
            fill(slot, completed.poll());
        } else if (timedOut) {
            slot.setException(new TimeoutException());
        } else {
            waitingSlots.add(slot);
        }
        return slot;
    }

    @SuppressWarnings("unchecked") // only our own inputs, all Future<? extends T>, call back here
    private void onCompletion(Future<?> done) {
        Future<? extends T> f = (Future<? extends T>) done;
        if (!todo.remove(f)) {
            return; // the timeout came first
        }
        Future<T> slot = waitingSlots.poll();
        while (slot != null && slot.isDone()) { // its awaiter was cancelled: the next one gets f
            slot = waitingSlots.poll();
        }
        if (slot != null) {
            fill(slot, f);
        } else {
            completed.add(f);
        }
        if (todo.isEmpty() && timer != null) {
            timer.cancel();
        }
    }

    private void onTimeout() {
        timedOut = true;
        for (Future<? extends T> f : todo) {
            f.removeDoneCallback(onCompletion);
        }
        todo.clear();
        Future<T> slot;
        while ((slot = waitingSlots.poll()) != null) {
            slot.setException(new TimeoutException());
        }
    }

    /** Gives {@code slot} the outcome of the finished future {@code f}. */
    private static <T> void fill(Future<T> slot, Future<? extends T> f) {
        if (f.isCancelled()) {
            slot.cancel(f.cancelMessage());
            return;
        }
        FutureOutcome.copy(f, slot);
    }
}
