package io.jasyncio.debug.graph;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who awaits whom on one loop, at one moment: a task awaits the future it is suspended on
 * ({@link Task#waitingOn()}: no bookkeeping on the await path), and the waiters that structures
 * awaiting on a task's behalf recorded ({@link Future#addAwaitedBy}: a TaskGroup's parent, the
 * caller of gather or shield). Take it on the loop's thread.
 */
final class Awaiters {
    private final Set<Task<?>> tasks;
    private final Map<Future<?>, List<Task<?>>> suspendedOn = new IdentityHashMap<>();

    private Awaiters(Set<Task<?>> tasks) {
        this.tasks = tasks;
        for (Task<?> t : tasks) {
            Future<?> on = t.waitingOn();
            if (on != null) {
                suspendedOn.computeIfAbsent(on, k -> new ArrayList<>(1)).add(t);
            }
        }
    }

    static Awaiters of(EventLoop loop) {
        return new Awaiters(Task.allTasks(loop));
    }

    /** The loop's pending tasks, in the order {@link Task#allTasks} gives them. */
    Set<Task<?>> tasks() {
        return tasks;
    }

    /** What awaits {@code future}: the tasks suspended on it, then the recorded waiters not among them. */
    List<Future<?>> of(Future<?> future) {
        List<Task<?>> direct = suspendedOn.getOrDefault(future, List.of());
        List<Future<?>> recorded = future.awaitedBy();
        if (recorded.isEmpty()) {
            return List.copyOf(direct);
        }
        List<Future<?>> all = new ArrayList<>(direct);
        for (Future<?> f : recorded) {
            if (!all.contains(f) && !f.isDone()) {
                all.add(f);
            }
        }
        return all;
    }
}
