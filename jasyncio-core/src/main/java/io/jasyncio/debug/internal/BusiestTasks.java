package io.jasyncio.debug.internal;

import io.jasyncio.debug.graph.CallGraphs;
import io.jasyncio.debug.graph.ProgramFrames;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The doctor's per-task account for {@code top}: each task's steps and time on the loop since the
 * last report, and every second a {@link TaskSampleEvent} for each of the five that took longest,
 * with where it is suspended now. Loop thread only; a map entry per task that ran in the second.
 */
final class BusiestTasks {
    static final int SHOWN = 5;
    private static final long EVERY_NANOS = 1_000_000_000L;

    private final Map<Task<?>, long[]> spent = new IdentityHashMap<>(); // steps, nanos
    private long since = System.nanoTime();

    void stepped(Task<?> task, long nanos) {
        long[] s = spent.computeIfAbsent(task, t -> new long[2]);
        s[0]++;
        s[1] += nanos;
    }

    /** Reports the busiest tasks once a second has passed since the last report. */
    void reportIfDue(int loopId, String loopThread) {
        long now = System.nanoTime();
        if (now - since < EVERY_NANOS) {
            return;
        }
        List<Map.Entry<Task<?>, long[]>> busiest = new ArrayList<>(spent.entrySet());
        busiest.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
        for (Map.Entry<Task<?>, long[]> e : busiest.subList(0, Math.min(SHOWN, busiest.size()))) {
            Task<?> task = e.getKey();
            TaskSampleEvent event = new TaskSampleEvent();
            event.loop = loopId;
            event.loopThread = loopThread;
            event.taskId = CallGraphs.id(task);
            event.name = task.getName();
            event.state = task.isDone() ? "done" : task.waitingOn() != null ? "waiting" : "ready";
            event.steps = e.getValue()[0];
            event.loopNanos = e.getValue()[1];
            event.intervalNanos = now - since;
            event.suspendedAt = ProgramFrames.of(task.getStack()).stream().map(ProgramFrames::function)
                    .collect(Collectors.joining(" -> "));
            event.awaitedBy = awaiters(task);
            event.commit();
        }
        spent.clear();
        since = now;
    }

    /** The names of the tasks awaiting {@code task}: recorded, or suspended on it. */
    private static String awaiters(Task<?> task) {
        List<String> names = new ArrayList<>();
        for (Future<?> f : CallGraphs.capture(task).awaitedBy().stream().map(g -> g.future()).toList()) {
            if (f instanceof Task<?> t) {
                names.add(t.getName());
            }
        }
        return String.join(", ", names);
    }
}
