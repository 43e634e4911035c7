package io.jasyncio.debug.graph;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Every pending task of one loop as {@link TaskRow}s. The loop's thread does only what must be done
 * there, in pieces so it is never held long: one callback copies who awaits whom (each task, what it
 * is suspended on, the waiters recorded on it, its name and state: references and a few field reads
 * a task), then the suspended stacks are walked in slices of at most {@link #SLICE_NANOS} each,
 * every slice a callback of its own, so the loop's other callbacks and I/O run in between. The rows
 * (ids, the awaiter index, frame labels) are then built by the thread that asked, in
 * {@link Taken#rows()}. A task that moves on between the two phases is shown where it is when its
 * stack is walked, as asyncio's {@code ps} reads a process that keeps running.
 */
public final class TaskSnapshot {
    /** How long one slice of stack walks may hold the loop. */
    static final long SLICE_NANOS = 1_000_000L;

    private static final byte READY = 0;
    private static final byte WAITING = 1;
    private static final byte RUNNING = 2;
    private static final StackTraceElement[] NO_FRAMES = new StackTraceElement[0];

    private TaskSnapshot() {
    }

    /**
     * Asks {@code loop} for its tasks, from any thread; completes (on the loop's thread) once every
     * slice has run. Call {@link Taken#rows()} on your own thread. The loop must run to answer.
     */
    public static CompletableFuture<Taken> take(EventLoop loop, int loopId) {
        CompletableFuture<Taken> done = new CompletableFuture<>();
        loop.callSoonThreadsafe(() -> {
            try {
                new Taken(loop, loopId).walkSlice(loop, done);
            } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    /** The rows at once, on the loop's thread (holds it for every stack walk: in-process use). */
    public static List<TaskRow> takeNow(EventLoop loop, int loopId) {
        Taken t = new Taken(loop, loopId);
        t.walk(Long.MAX_VALUE);
        return t.rows();
    }

    /** What the loop's thread copied; {@link #rows()} turns it into rows on any thread. */
    public static final class Taken {
        private final int loopId;
        private final long thread;
        private final Task<?>[] tasks;
        private final Future<?>[] suspendedOn;
        private final List<?>[] recorded;
        private final String[] names;
        private final byte[] states;
        private final StackTraceElement[][] stacks;
        private int walked;

        /** On the loop's thread: the structure, at one moment. */
        private Taken(EventLoop loop, int loopId) {
            this.loopId = loopId;
            Thread t = loop.thread();
            this.thread = t != null ? t.threadId() : 0;
            Set<Task<?>> all = Task.allTasks(loop);
            int n = all.size();
            tasks = new Task<?>[n];
            suspendedOn = new Future<?>[n];
            recorded = new List<?>[n];
            names = new String[n];
            states = new byte[n];
            stacks = new StackTraceElement[n][];
            Task<?> current = Task.current();
            int i = 0;
            for (Task<?> task : all) {
                Future<?> on = task.waitingOn();
                tasks[i] = task;
                suspendedOn[i] = on;
                recorded[i] = task.awaitedBy();
                names[i] = task.getName();
                states[i] = task == current ? RUNNING : on != null && !on.isDone() ? WAITING : READY;
                i++;
            }
        }

        /** On the loop's thread: walks stacks until all are walked (true) or {@code budgetNanos} has passed. */
        private boolean walk(long budgetNanos) {
            long start = System.nanoTime();
            while (walked < tasks.length) {
                stacks[walked] = states[walked] == RUNNING ? NO_FRAMES : tasks[walked].getStack();
                walked++;
                if ((walked & 15) == 0 && System.nanoTime() - start > budgetNanos) {
                    break;
                }
            }
            return walked == tasks.length;
        }

        private void walkSlice(EventLoop loop, CompletableFuture<Taken> done) {
            if (walk(SLICE_NANOS)) {
                done.complete(this);
                return;
            }
            loop.callSoon(() -> {
                try {
                    walkSlice(loop, done);
                } catch (RuntimeException | Error e) {
                    done.completeExceptionally(e);
                }
            });
        }

        /** The rows, in the loop's task order. Any thread, once taken. */
        public List<TaskRow> rows() {
            Map<Future<?>, List<Integer>> awaitersOf = new IdentityHashMap<>();
            Map<Future<?>, Integer> indexOf = new IdentityHashMap<>();
            for (int i = 0; i < tasks.length; i++) {
                indexOf.put(tasks[i], i);
                if (suspendedOn[i] != null) {
                    awaitersOf.computeIfAbsent(suspendedOn[i], k -> new ArrayList<>(1)).add(i);
                }
            }
            String[] ids = new String[tasks.length];
            for (int i = 0; i < tasks.length; i++) {
                ids[i] = CallGraphs.id(tasks[i]);
            }
            List<TaskRow> rows = new ArrayList<>(tasks.length);
            for (int i = 0; i < tasks.length; i++) {
                List<String> by = new ArrayList<>(1);
                for (int a : awaitersOf.getOrDefault(tasks[i], List.of())) {
                    by.add(ids[a]);
                }
                for (Object f : recorded[i]) {
                    Integer a = indexOf.get(f);
                    if (a != null && !by.contains(ids[a])) {
                        by.add(ids[a]); // a recorded waiter that is a pending task of this loop
                    }
                }
                List<String> frames = new ArrayList<>();
                for (StackTraceElement f : ProgramFrames.of(stacks[i])) {
                    frames.add(ProgramFrames.label(f));
                }
                Future<?> on = suspendedOn[i];
                String waitingOn = on == null ? "" : on instanceof Task<?> ? "Task " + nameOf(on, indexOf)
                        : on.getClass().getSimpleName();
                rows.add(new TaskRow(loopId, thread, ids[i], names[i], stateName(states[i]), waitingOn, frames, by));
            }
            return rows;
        }

        /** 'name' of a task of this snapshot, or its id (it finished since, or is another loop's). */
        private String nameOf(Future<?> task, Map<Future<?>, Integer> indexOf) {
            Integer i = indexOf.get(task);
            return i != null ? "'" + names[i] + "'" : CallGraphs.id(task);
        }

        private static String stateName(byte state) {
            return state == RUNNING ? "running" : state == WAITING ? "waiting" : "ready";
        }
    }
}
