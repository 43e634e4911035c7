package io.jasyncio.task;

import io.jasyncio.loop.EventLoops;

import java.util.ArrayList;
import java.util.List;

/**
 * Coroutines handed to a combinator become tasks on the running loop, in argument order, as
 * asyncio's {@code ensure_future} makes them for {@code gather}, {@code as_completed},
 * {@code shield} and {@code wait_for}.
 */
public final class CoroutineTasks {
    private CoroutineTasks() {
    }

    public static <T> Task<T> of(Coroutine<T> body) {
        return Tasks.create(EventLoops.getRunningLoop(), body, null, null);
    }

    /** One task per body, {@code first} then {@code rest}, all started at the loop's next turn. */
    @SafeVarargs
    public static <T> List<Task<? extends T>> of(Coroutine<? extends T> first, Coroutine<? extends T>... rest) {
        List<Task<? extends T>> tasks = new ArrayList<>(rest.length + 1);
        tasks.add(of(first));
        for (Coroutine<? extends T> body : rest) {
            tasks.add(of(body));
        }
        return tasks;
    }

    /** As {@link #of(Coroutine, Coroutine[])} for bodies that return nothing. */
    public static List<Task<? extends Void>> of(VoidCoroutine first, VoidCoroutine... rest) {
        List<Task<? extends Void>> tasks = new ArrayList<>(rest.length + 1);
        tasks.add(of(first.asCoroutine()));
        for (VoidCoroutine body : rest) {
            tasks.add(of(body.asCoroutine()));
        }
        return tasks;
    }
}
