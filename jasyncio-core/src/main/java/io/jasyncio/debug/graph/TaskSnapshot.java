package io.jasyncio.debug.graph;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Every pending task of one loop as {@link TaskRow}s, taken on the loop's thread in two phases so
 * the loop is never held long: one callback records who awaits whom (names, states, links: about
 * 0.1 µs a task), then the suspended stacks are walked in slices of at most {@link #SLICE_NANOS}
 * each, every slice a callback of its own, so the loop's other callbacks and I/O run in between.
 * A task that moves on between the two phases is shown where it is when its stack is walked.
 */
public final class TaskSnapshot {
    /** How long one slice of stack walks may hold the loop. */
    static final long SLICE_NANOS = 1_000_000L;

    private TaskSnapshot() {
    }

    /** The rows of {@code loop}'s tasks, taken in slices from any thread (the loop must be running to answer). */
    public static CompletableFuture<List<TaskRow>> take(EventLoop loop, int loopId) {
        CompletableFuture<List<TaskRow>> done = new CompletableFuture<>();
        loop.callSoonThreadsafe(() -> {
            try {
                Phase p = structure(loop, loopId);
                p.walkSlice(loop, done);
            } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    /** The rows at once, on the loop's thread (holds it for every stack walk: in-process use). */
    public static List<TaskRow> takeNow(EventLoop loop, int loopId) {
        Phase p = structure(loop, loopId);
        while (!p.walk(Long.MAX_VALUE)) {
            // one pass walks all
        }
        return p.rows;
    }

    private static Phase structure(EventLoop loop, int loopId) {
        Awaiters awaiters = Awaiters.of(loop);
        Thread thread = loop.thread();
        long tid = thread != null ? thread.threadId() : 0;
        Task<?> current = Task.current();
        Phase p = new Phase();
        for (Task<?> t : awaiters.tasks()) {
            List<String> by = new ArrayList<>(1);
            for (Future<?> f : awaiters.of(t)) {
                if (f instanceof Task<?>) {
                    by.add(CallGraphs.id(f));
                }
            }
            Future<?> on = t.waitingOn();
            String state = t == current ? "running" : on != null && !on.isDone() ? "waiting" : "ready";
            String waitingOn = on == null ? "" : on instanceof Task<?> awaited ? "Task '" + awaited.getName() + "'"
                    : on.getClass().getSimpleName();
            p.tasks.add(t == current ? null : t); // the running task has no suspended frames
            p.rows.add(new TaskRow(loopId, tid, CallGraphs.id(t), t.getName(), state, waitingOn, List.of(), by));
        }
        return p;
    }

    /** The rows with their links, and the stacks walked so far. */
    private static final class Phase {
        final List<Task<?>> tasks = new ArrayList<>();
        final List<TaskRow> rows = new ArrayList<>();
        int next;

        /** Walks stacks until all are done (true) or {@code budgetNanos} has passed. */
        boolean walk(long budgetNanos) {
            long start = System.nanoTime();
            while (next < tasks.size()) {
                Task<?> t = tasks.get(next);
                List<String> frames = new ArrayList<>();
                for (StackTraceElement f : ProgramFrames.of(t != null ? t.getStack() : new StackTraceElement[0])) {
                    frames.add(ProgramFrames.label(f));
                }
                rows.set(next, rows.get(next).withStack(frames));
                tasks.set(next, null); // walked: the snapshot keeps no task alive
                next++;
                if ((next & 15) == 0 && System.nanoTime() - start > budgetNanos) {
                    return next == tasks.size();
                }
            }
            return true;
        }

        void walkSlice(EventLoop loop, CompletableFuture<List<TaskRow>> done) {
            if (walk(SLICE_NANOS)) {
                done.complete(rows);
            } else {
                loop.callSoon(() -> {
                    try {
                        walkSlice(loop, done);
                    } catch (RuntimeException | Error e) {
                        done.completeExceptionally(e);
                    }
                });
            }
        }
    }
}
