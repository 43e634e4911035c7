package callgraph;

import io.jasyncio.Asyncio;
import io.jasyncio.loop.Future;
import io.jasyncio.sync.Event;
import io.jasyncio.task.Task;

import java.util.List;

/**
 * Programs whose tasks await each other in each way the call graph follows, for
 * {@code CallGraphTest}. Outside the library's packages, so their frames count as the program's.
 */
public final class Awaiting {
    private Awaiting() {
    }

    /** Sleeps an hour (until cancelled), after telling {@code started}. */
    public static void play(Event started) {
        started.set();
        Asyncio.sleep(3600);
    }

    /** A TaskGroup of two {@link #play} tasks. */
    public static void album(Event first, Event second) {
        Asyncio.taskGroup(tg -> {
            tg.createTask(() -> play(first), "first");
            tg.createTask(() -> play(second), "second");
        });
    }

    public static void gatherBoth(Task<?> a, Task<?> b) {
        Asyncio.await(Asyncio.gather(a, b));
    }

    public static void shielded(Task<?> inner) {
        Asyncio.await(Asyncio.shield(inner));
    }

    public static void waitForIt(Task<?> inner) {
        Asyncio.waitFor(inner, 3600.0);
    }

    public static void awaitTask(Future<?> other) {
        Asyncio.await(other);
    }

    /** The caller's own call graph, taken from inside its task. */
    public static io.jasyncio.debug.graph.FutureCallGraph whereAmI() {
        return Asyncio.captureCallGraph();
    }

    /** The call graph of {@code task}, asked by name (the task may be the caller's own). */
    public static io.jasyncio.debug.graph.FutureCallGraph whereIs(Task<?> task) {
        return Asyncio.captureCallGraph(task);
    }

    /** Each awaits the other: a cycle. */
    public static List<Task<Void>> cycle() {
        Task<?>[] tasks = new Task<?>[2];
        Task<Void> a = Asyncio.createTask(() -> {
            Asyncio.sleep(0);
            awaitTask(tasks[1]);
        }, "A");
        Task<Void> b = Asyncio.createTask(() -> {
            Asyncio.sleep(0);
            awaitTask(tasks[0]);
        }, "B");
        tasks[0] = a;
        tasks[1] = b;
        return List.of(a, b);
    }
}
