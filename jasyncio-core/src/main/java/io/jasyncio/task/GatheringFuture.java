package io.jasyncio.task;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The future {@code gather} returns, as asyncio's {@code _GatheringFuture}: it completes with the
 * children's results in argument order.
 *
 * <ul>
 *   <li>Without {@code returnExceptions}, the first child that fails (or is cancelled) fails the
 *       gather at once with that exception (a {@link CancelledError} for a cancelled child); the
 *       other children keep running.</li>
 *   <li>With {@code returnExceptions}, failures take their child's place in the result list
 *       (a cancelled child contributes a {@code CancelledError}).</li>
 *   <li>Cancelling the gather cancels every child that is still pending; the gather then fails
 *       with {@code CancelledError} whatever {@code returnExceptions} says.</li>
 *   <li>The same future passed twice is one child and appears twice in the results.</li>
 *   <li>Children already done when {@code gather} is called are taken into account at once, in
 *       argument order (asyncio 3.12+): if all are, the gather is returned done, and one that failed
 *       fails it at once without {@code returnExceptions}.</li>
 * </ul>
 */
public final class GatheringFuture<T> extends Future<List<T>> {
    private final List<Future<? extends T>> children;
    private final boolean returnExceptions;
    private int distinctChildren;
    private int finished;
    private boolean cancelRequested;
    /** The task that called gather: recorded as awaiting each pending child (call graphs), or null. */
    private Task<?> caller;

    private GatheringFuture(EventLoop loop, List<Future<? extends T>> children, boolean returnExceptions) {
        super(loop);
        this.children = children;
        this.returnExceptions = returnExceptions;
    }

    /** Gathers {@code futures} (all of one loop): the future of their results in argument order. */
    public static <T> GatheringFuture<T> gather(boolean returnExceptions, List<? extends Future<? extends T>> futures) {
        List<Future<? extends T>> children = List.copyOf(futures);
        EventLoop loop = children.isEmpty() ? EventLoops.getRunningLoop() : children.get(0).getLoop();
        for (Future<? extends T> f : children) {
            if (f.getLoop() != loop) {
                throw new IllegalArgumentException("gather: all futures must belong to the same loop; " + f
                        + " belongs to another one");
            }
        }
        GatheringFuture<T> outer = new GatheringFuture<>(loop, children, returnExceptions);
        if (children.isEmpty()) {
            outer.setResult(List.of());
            return outer;
        }
        // A future passed twice gets one callback: it counts once towards "all finished".
        Map<Future<?>, Boolean> distinct = new IdentityHashMap<>();
        List<Future<? extends T>> doneAlready = new ArrayList<>();
        outer.caller = Task.current(); // awaits the children through the gather (call graphs)
        for (Future<? extends T> f : children) {
            if (distinct.put(f, Boolean.TRUE) == null) {
                if (f.isDone()) {
                    doneAlready.add(f);
                } else {
                    if (outer.caller != null) {
                        f.addAwaitedBy(outer.caller);
                    }
                    f.addDoneCallback(outer::onChildDone);
                }
            }
        }
        outer.distinctChildren = distinct.size();
        // As asyncio since 3.12: children done already are collected now, in argument order, not a
        // loop iteration later; if all are, the gather is returned done (and awaiting it does not yield).
        for (Future<? extends T> f : doneAlready) {
            outer.onChildDone(f);
        }
        return outer;
    }

    /** As {@link #gather(boolean, java.util.List)} of {@code futures}. */
    @SafeVarargs
    public static <T> GatheringFuture<T> gather(boolean returnExceptions, Future<? extends T>... futures) {
        return gather(returnExceptions, Arrays.asList(futures));
    }

    /** Gathers coroutines: each becomes a task on the running loop, in argument order, as in asyncio. */
    @SafeVarargs
    public static <T> GatheringFuture<T> gather(boolean returnExceptions, Coroutine<? extends T> first,
                                                Coroutine<? extends T>... rest) {
        return gather(returnExceptions, CoroutineTasks.of(first, rest));
    }

    /** As {@link #gather(boolean, Coroutine, Coroutine[])} for bodies that return nothing. */
    public static GatheringFuture<Void> gather(boolean returnExceptions, VoidCoroutine first, VoidCoroutine... rest) {
        return gather(returnExceptions, CoroutineTasks.of(first, rest));
    }

    private void onChildDone(Future<?> child) {
        finished++;
        if (caller != null) {
            child.discardAwaitedBy(caller);
        }
        if (isDone()) {
            if (!child.isCancelled()) {
                child.exception(); // the gather is over: mark the child's exception retrieved
            }
            return;
        }
        if (!returnExceptions) {
            if (child.isCancelled()) {
                setException(cancelledErrorOf(child));
                return;
            }
            Throwable error = child.exception();
            if (error != null) {
                setException(error);
                return;
            }
        }
        if (finished == distinctChildren) {
            if (cancelRequested) {
                // The gather itself was cancelled: that wins over returnExceptions.
                setException(cancelledErrorOf(child));
                return;
            }
            setResult(collectResults());
        }
    }

    @SuppressWarnings("unchecked")
    private List<T> collectResults() {
        List<Object> results = new ArrayList<>(children.size());
        for (Future<? extends T> f : children) {
            if (f.isCancelled()) {
                results.add(cancelledErrorOf(f));
            } else {
                Throwable error = f.exception();
                results.add(error != null ? error : f.result());
            }
        }
        return Collections.unmodifiableList((List<T>) results);
    }

    private static CancelledError cancelledErrorOf(Future<?> f) {
        return CancelledError.of(f.cancelMessage());
    }

    /**
     * Cancels every child still pending; returns true if any was. The gather then completes with
     * a {@link CancelledError} once the children are done.
     */
    @Override
    public boolean cancel(String message) {
        if (isDone()) {
            return false;
        }
        boolean any = false;
        for (Future<? extends T> child : children) {
            if (child.cancel(message)) {
                any = true;
            }
        }
        if (any) {
            cancelRequested = true;
        }
        return any;
    }

    /** The children, in argument order (duplicates included). */
    public List<Future<? extends T>> children() {
        return children;
    }

    @Override
    public String toString() {
        return "<GatheringFuture " + (isDone() ? "done" : finished + "/" + distinctChildren + " finished")
                + " children=" + children.size() + ">";
    }
}
