package io.jasyncio;

import io.jasyncio.context.Context;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.net.ClientConnectedCallback;
import io.jasyncio.net.Server;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.net.StreamConnection;
import io.jasyncio.net.StreamReader;
import io.jasyncio.net.Streams;
import io.jasyncio.net.TlsOptions;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.Runner;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;
import io.jasyncio.task.VoidCoroutine;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * The facade: what asyncio's module-level functions are, for Java.
 *
 * <pre>{@code
 * import static io.jasyncio.Asyncio.*;
 *
 * String greeting = run(() -> {
 *     Task<String> t = createTask(() -> { sleep(0.1); return "hello"; });
 *     return await(t) + ", world";
 * });
 * }</pre>
 *
 * <p>Awaiting never yields to the loop unless the awaited thing is still pending; a plain method
 * call is a plain call. {@link #sleep(double) sleep(0)} is the explicit yield point.
 */
public final class Asyncio {
    private Asyncio() {
    }

    // ---- running ----------------------------------------------------------------------------

    /** Runs {@code main} on a fresh loop, cancels what is left, closes the loop; returns main's result. */
    public static <T> T run(Coroutine<T> main) {
        return run(main, false);
    }

    /** As {@link #run(Coroutine)}, with debug mode on or off. */
    public static <T> T run(Coroutine<T> main, boolean debug) {
        try (Runner runner = new Runner(debug, null)) {
            return runner.run(main);
        }
    }

    /** Runs a body that returns nothing. */
    public static void run(VoidCoroutine main) {
        run(main.asCoroutine(), false);
    }

    /** The loop running on this thread; throws outside one. */
    public static EventLoop getRunningLoop() {
        return EventLoops.getRunningLoop();
    }

    // ---- tasks ------------------------------------------------------------------------------

    /** Schedules {@code body} as a task on the running loop; it starts at the loop's next turn. */
    public static <T> Task<T> createTask(Coroutine<T> body) {
        return Tasks.create(getRunningLoop(), body, null, null);
    }

    public static <T> Task<T> createTask(Coroutine<T> body, String name) {
        return Tasks.create(getRunningLoop(), body, name, null);
    }

    /** A task that runs in {@code context} itself rather than in a copy of the current one. */
    public static <T> Task<T> createTask(Coroutine<T> body, String name, Context context) {
        return Tasks.create(getRunningLoop(), body, name, context);
    }

    public static Task<Void> createTask(VoidCoroutine body) {
        return Tasks.create(getRunningLoop(), body.asCoroutine(), null, null);
    }

    public static Task<Void> createTask(VoidCoroutine body, String name) {
        return Tasks.create(getRunningLoop(), body.asCoroutine(), name, null);
    }

    /** A task whose body starts now and runs synchronously until its first real suspension. */
    public static <T> Task<T> createEagerTask(Coroutine<T> body) {
        return Tasks.createEager(getRunningLoop(), body, null, null);
    }

    /** The task running now, or null outside a task. */
    public static Task<?> currentTask() {
        return Tasks.current();
    }

    /** The running loop's tasks that are not done. */
    public static Set<Task<?>> allTasks() {
        return Task.allTasks(getRunningLoop());
    }

    // ---- awaiting ---------------------------------------------------------------------------

    /**
     * The result of {@code future}: at once if it is done (no yield), else after suspending the
     * calling task until it is. Throws the future's own exception object, checked or not.
     */
    public static <T> T await(Future<T> future) {
        return Tasks.await(future);
    }

    /** Suspends the calling task for {@code seconds}; {@code sleep(0)} yields exactly once. */
    public static void sleep(double seconds) {
        if (seconds <= 0) {
            Tasks.yieldNow();
            return;
        }
        EventLoop loop = getRunningLoop();
        Future<Void> done = loop.createFuture();
        var timer = loop.callLater(seconds, () -> {
            if (!done.isDone()) {
                done.setResult(null);
            }
        });
        try {
            Tasks.await(done);
        } finally {
            timer.cancel();
        }
    }

    /** Suspends the calling task for {@code delay}. */
    public static void sleep(Duration delay) {
        sleep(delay.toNanos() / 1e9);
    }

    /** Suspends for {@code seconds}, then returns {@code result}. */
    public static <T> T sleep(double seconds, T result) {
        sleep(seconds);
        return result;
    }

    // ---- combinators: gather, wait, waitFor, asCompleted, shield, timeout, TaskGroup ----------

    // ---- blocking work: toThread ------------------------------------------------------------

    // ---- networking: openConnection, startServer, ... ----------------------------------------

    /** Coroutine: a (reader, writer) pair connected to {@code host:port} (asyncio.open_connection). */
    public static StreamConnection openConnection(String host, int port) throws IOException {
        return Streams.openConnection(getRunningLoop(), host, port, null, StreamReader.DEFAULT_LIMIT);
    }

    /** As {@link #openConnection(String, int)}, over TLS. */
    public static StreamConnection openConnection(String host, int port, TlsOptions tls) throws IOException {
        return Streams.openConnection(getRunningLoop(), host, port, tls, StreamReader.DEFAULT_LIMIT);
    }

    /** Coroutine: a server running {@code callback} as a task per connection (asyncio.start_server). */
    public static Server startServer(ClientConnectedCallback callback, String host, int port) throws IOException {
        return Streams.startServer(getRunningLoop(), callback, host, port, ServerOptions.defaults(), StreamReader.DEFAULT_LIMIT);
    }

    /** As {@link #startServer(ClientConnectedCallback, String, int)} with options (backlog, TLS, ...). */
    public static Server startServer(ClientConnectedCallback callback, String host, int port, ServerOptions options)
            throws IOException {
        return Streams.startServer(getRunningLoop(), callback, host, port, options, StreamReader.DEFAULT_LIMIT);
    }

    /** Coroutine: a (reader, writer) pair over the Unix domain socket at {@code path}. */
    public static StreamConnection openUnixConnection(Path path) throws IOException {
        return Streams.openUnixConnection(getRunningLoop(), path, null, StreamReader.DEFAULT_LIMIT);
    }

    /** Coroutine: a stream server on the Unix domain socket at {@code path}. */
    public static Server startUnixServer(ClientConnectedCallback callback, Path path) throws IOException {
        return Streams.startUnixServer(getRunningLoop(), callback, path, ServerOptions.defaults(), StreamReader.DEFAULT_LIMIT);
    }
}
