package io.jasyncio;

import io.jasyncio.debug.graph.CallGraphs;
import io.jasyncio.debug.graph.FutureCallGraph;
import io.jasyncio.context.Context;
import io.jasyncio.exec.DefaultExecutorShutdown;
import io.jasyncio.exec.ToCpu;
import io.jasyncio.exec.ToThread;
import io.jasyncio.interop.JavaFutures;
import io.jasyncio.interop.ThreadsafeCoroutines;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.task.AsCompleted;
import io.jasyncio.net.ClientConnectedCallback;
import io.jasyncio.net.ConnectOptions;
import io.jasyncio.net.Server;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.net.StreamConnection;
import io.jasyncio.net.StreamReader;
import io.jasyncio.net.Streams;
import io.jasyncio.net.TlsOptions;
import io.jasyncio.subprocess.Subprocess;
import io.jasyncio.subprocess.SubprocessOptions;
import io.jasyncio.subprocess.Subprocesses;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.DoneAndPending;
import io.jasyncio.task.GatheringFuture;
import io.jasyncio.task.ReturnWhen;
import io.jasyncio.task.Runner;
import io.jasyncio.task.internal.Shield;
import io.jasyncio.task.Task;
import io.jasyncio.task.TaskGroup;
import io.jasyncio.task.Tasks;
import io.jasyncio.task.Timeout;
import io.jasyncio.task.TimeoutException;
import io.jasyncio.task.VoidCoroutine;
import io.jasyncio.task.ThrowingCoroutine;
import io.jasyncio.task.ThrowingVoidCoroutine;
import io.jasyncio.util.Throwables;
import io.jasyncio.task.internal.Wait;
import io.jasyncio.task.internal.WaitFor;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

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

    /**
     * Runs {@code main} on a fresh loop, cancels what is left, closes the loop; returns main's result.
     *
     * <p>Checked exceptions: {@code main}'s failure is thrown as it is, and {@code throws X}
     * declares what Java infers from the lambda's body, so a checked exception is caught by its
     * own type: {@code try { run(() -> openConnection(host, port)); } catch (IOException e)}. A
     * body that throws no checked exception needs no {@code throws} clause. The same holds for
     * {@link #runUntilComplete}, {@link #timeout(double, ThrowingCoroutine)},
     * {@link #timeoutAt(double, ThrowingCoroutine)} and {@link #waitFor(ThrowingCoroutine, Double)}
     * (see {@link ThrowingCoroutine}). {@link #await(Future)} rethrows a future's exception
     * unchanged too, but a future's type does not say what it fails with: catch a checked
     * exception from {@code await} around the {@code run} or {@code timeout} whose body awaits.
     */
    public static <T, X extends Exception> T run(ThrowingCoroutine<T, X> main) throws X {
        return run(main, false);
    }

    /** As {@link #run(ThrowingCoroutine)}, with debug mode on or off. */
    public static <T, X extends Exception> T run(ThrowingCoroutine<T, X> main, boolean debug) throws X {
        try (Runner runner = new Runner(debug, null)) {
            return runner.run(main);
        }
    }

    /** Runs a body that returns nothing; throws as {@link #run(ThrowingCoroutine)}. */
    public static <X extends Exception> void run(ThrowingVoidCoroutine<X> main) throws X {
        try (Runner runner = new Runner(false, null)) {
            runner.run(main.asCoroutine());
        } catch (Exception e) {
            throw Throwables.sneakyThrow(e); // main's own failure: X, or unchecked
        }
    }

    /** The loop running on this thread; throws outside one. */
    public static EventLoop getRunningLoop() {
        return EventLoops.getRunningLoop();
    }

    /**
     * A new loop, not running (asyncio's {@code new_event_loop()}), of the implementation
     * {@code -Djasyncio.loop} names (default {@code nio}). Schedule on it with
     * {@link #createTask(EventLoop, Coroutine)}, run it with {@link #runUntilComplete}, close it.
     */
    public static EventLoop newEventLoop() {
        return EventLoops.newEventLoop();
    }

    /**
     * Runs {@code main} as a task on {@code loop}, which must not be running, until it is done;
     * returns its result (asyncio's {@code loop.run_until_complete(coro)}). The loop stays open.
     * Throws {@code main}'s failure as {@link #run(ThrowingCoroutine)} does.
     */
    public static <T, X extends Exception> T runUntilComplete(EventLoop loop, ThrowingCoroutine<T, X> main) throws X {
        return loop.runUntilComplete(Tasks.create(loop, main.asCoroutine(), null, null));
    }

    /** As {@link #runUntilComplete(EventLoop, ThrowingCoroutine)} for a body that returns nothing. */
    public static <X extends Exception> void runUntilComplete(EventLoop loop, ThrowingVoidCoroutine<X> main) throws X {
        loop.runUntilComplete(Tasks.create(loop, main.asCoroutine(), null, null));
    }

    // ---- tasks ------------------------------------------------------------------------------

    /** Schedules {@code body} as a task on the running loop; it starts at the loop's next turn. */
    public static <T> Task<T> createTask(Coroutine<T> body) {
        return Tasks.create(getRunningLoop(), body, null, null);
    }

    /** As {@link #createTask(Coroutine)}, naming the task {@code name} (null: {@code Task-N}). */
    public static <T> Task<T> createTask(Coroutine<T> body, String name) {
        return Tasks.create(getRunningLoop(), body, name, null);
    }

    /** A task that runs in {@code context} itself rather than in a copy of the current one. */
    public static <T> Task<T> createTask(Coroutine<T> body, String name, Context context) {
        return Tasks.create(getRunningLoop(), body, name, context);
    }

    /**
     * Schedules {@code body}, which returns nothing, as a task on the running loop; it starts at the
     * loop's next turn.
     */
    public static Task<Void> createTask(VoidCoroutine body) {
        return Tasks.create(getRunningLoop(), body.asCoroutine(), null, null);
    }

    /** As {@link #createTask(VoidCoroutine)}, naming the task {@code name} (null: {@code Task-N}). */
    public static Task<Void> createTask(VoidCoroutine body, String name) {
        return Tasks.create(getRunningLoop(), body.asCoroutine(), name, null);
    }

    /**
     * Schedules {@code body} as a task on {@code loop}, running or not yet (asyncio's
     * {@code loop.create_task(coro)}): it starts at the loop's next turn.
     */
    public static <T> Task<T> createTask(EventLoop loop, Coroutine<T> body) {
        return Tasks.create(loop, body, null, null);
    }

    /** As {@link #createTask(EventLoop, Coroutine)}, for a body that returns nothing. */
    public static Task<Void> createTask(EventLoop loop, VoidCoroutine body) {
        return Tasks.create(loop, body.asCoroutine(), null, null);
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

    // ---- combinators: gather, waitTasks, waitFor, asCompleted, shield, timeout, TaskGroup ----------

    /**
     * A future of the results of {@code futures}, in argument order (asyncio's {@code gather}).
     * The first failure fails it at once (the other futures keep running); cancelling it cancels
     * them all. Bodies can be passed directly: see {@link #gather(Coroutine, Coroutine[])}.
     */
    @SafeVarargs
    public static <T> Future<List<T>> gather(Future<? extends T>... futures) {
        return GatheringFuture.gather(false, Arrays.asList(futures));
    }

    /** As {@link #gather(Future[])} over a list. */
    public static <T> Future<List<T>> gather(List<? extends Future<? extends T>> futures) {
        return GatheringFuture.gather(false, futures);
    }

    /**
     * As {@link #gather(Future[])}; with {@code returnExceptions}, a failure takes its future's
     * place in the results (a {@code Throwable}) instead of failing the gather.
     */
    public static Future<List<Object>> gather(boolean returnExceptions, Future<?>... futures) {
        return GatheringFuture.gather(returnExceptions, Arrays.asList(futures));
    }

    /** As {@link #gather(boolean, Future[])} over a list. */
    public static Future<List<Object>> gather(boolean returnExceptions, List<? extends Future<?>> futures) {
        return GatheringFuture.gather(returnExceptions, futures);
    }

    /**
     * Gathers coroutines, as asyncio's {@code gather(coro1(), coro2())}: each becomes a task on the
     * running loop, in argument order; then as {@link #gather(Future[])}.
     */
    @SafeVarargs
    public static <T> Future<List<T>> gather(Coroutine<? extends T> first, Coroutine<? extends T>... rest) {
        return GatheringFuture.gather(false, first, rest);
    }

    /** As {@link #gather(Coroutine, Coroutine[])} for bodies that return nothing. */
    public static Future<List<Void>> gather(VoidCoroutine first, VoidCoroutine... rest) {
        return GatheringFuture.gather(false, first, rest);
    }

    /** As {@link #gather(boolean, Future[])} over coroutines, each made a task. */
    public static Future<List<Object>> gather(boolean returnExceptions, Coroutine<?> first, Coroutine<?>... rest) {
        return GatheringFuture.gather(returnExceptions, first, rest);
    }

    /**
     * Waits until every future is done (asyncio's {@code wait}); returns them sorted into done and
     * pending. Never raises their errors, never cancels them. Named {@code waitTasks}, not
     * {@code wait}, so that it can be called unqualified after {@code import static
     * io.jasyncio.Asyncio.*}: inside any class, a bare {@code wait} means {@code Object.wait}.
     */
    public static <F extends Future<?>> DoneAndPending<F> waitTasks(Collection<F> futures) {
        return Wait.wait(futures, null, ReturnWhen.ALL_COMPLETED);
    }

    /** As {@link #waitTasks(Collection)}, returning as {@code returnWhen} says. */
    public static <F extends Future<?>> DoneAndPending<F> waitTasks(Collection<F> futures, ReturnWhen returnWhen) {
        return Wait.wait(futures, null, returnWhen);
    }

    /** As {@link #waitTasks(Collection)}, returning after {@code timeout} seconds at the latest. */
    public static <F extends Future<?>> DoneAndPending<F> waitTasks(Collection<F> futures, double timeout) {
        return Wait.wait(futures, timeout, ReturnWhen.ALL_COMPLETED);
    }

    /** As {@link #waitTasks(Collection)}, with a timeout in seconds (null: none) and a return condition. */
    public static <F extends Future<?>> DoneAndPending<F> waitTasks(Collection<F> futures, Double timeout,
                                                                 ReturnWhen returnWhen) {
        return Wait.wait(futures, timeout, returnWhen);
    }

    /**
     * The old name of {@link #waitTasks(Collection, Double, ReturnWhen)}, callable only qualified
     * ({@code Asyncio.wait(...)}): unqualified, {@code Object.wait} shadows it.
     *
     * @deprecated use {@code waitTasks}, which works unqualified after a static import
     */
    @Deprecated
    public static <F extends Future<?>> DoneAndPending<F> wait(Collection<F> futures, Double timeout,
                                                            ReturnWhen returnWhen) {
        return Wait.wait(futures, timeout, returnWhen);
    }

    /** @deprecated use {@link #waitTasks(Collection)} */
    @Deprecated
    public static <F extends Future<?>> DoneAndPending<F> wait(Collection<F> futures) {
        return Wait.wait(futures, null, ReturnWhen.ALL_COMPLETED);
    }

    /** @deprecated use {@link #waitTasks(Collection, ReturnWhen)} */
    @Deprecated
    public static <F extends Future<?>> DoneAndPending<F> wait(Collection<F> futures, ReturnWhen returnWhen) {
        return Wait.wait(futures, null, returnWhen);
    }

    /** @deprecated use {@link #waitTasks(Collection, double)} */
    @Deprecated
    public static <F extends Future<?>> DoneAndPending<F> wait(Collection<F> futures, double timeout) {
        return Wait.wait(futures, timeout, ReturnWhen.ALL_COMPLETED);
    }

    /**
     * The result of {@code future}, or {@link TimeoutException} after {@code timeout} seconds
     * (null: no limit), in which case the future is cancelled and waited for first.
     */
    public static <T> T waitFor(Future<T> future, Double timeout) {
        return WaitFor.waitFor(future, timeout);
    }

    /**
     * Runs {@code body} as a task with a time limit (asyncio's {@code wait_for(coro, t)}); throws
     * its failure as {@link #run(ThrowingCoroutine)} does, or {@link TimeoutException}.
     */
    public static <T, X extends Exception> T waitFor(ThrowingCoroutine<T, X> body, Double timeout) throws X {
        return WaitFor.waitFor(body, timeout);
    }

    /** The futures in completion order: each {@code next()} is a future to await (asyncio's {@code as_completed}). */
    public static <T> AsCompleted<T> asCompleted(Collection<? extends Future<? extends T>> futures) {
        return AsCompleted.asCompleted(futures, null);
    }

    /** As {@link #asCompleted(Collection)}; slots not filled after {@code timeout} seconds fail with TimeoutException. */
    public static <T> AsCompleted<T> asCompleted(Collection<? extends Future<? extends T>> futures, Double timeout) {
        return AsCompleted.asCompleted(futures, timeout);
    }

    /** As {@link #asCompleted(Collection)} over coroutines, each made a task on the running loop (as in asyncio). */
    @SafeVarargs
    public static <T> AsCompleted<T> asCompleted(Coroutine<? extends T> first, Coroutine<? extends T>... rest) {
        return AsCompleted.asCompleted(null, first, rest);
    }

    /** A future that follows {@code inner} but whose cancellation does not reach it (asyncio's {@code shield}). */
    public static <T> Future<T> shield(Future<T> inner) {
        return Shield.shield(inner);
    }

    /** Shields a coroutine: it becomes a task (as in asyncio), which the caller's cancellation does not reach. */
    public static <T> Future<T> shield(Coroutine<T> body) {
        return Shield.shield(body);
    }

    /** A timeout {@code delay} seconds from now, to {@link Timeout#run run} a body under (asyncio's {@code timeout}). */
    public static Timeout timeout(double delay) {
        return Timeout.after(delay);
    }

    /** A timeout at loop time {@code when} (asyncio's {@code timeout_at}). */
    public static Timeout timeoutAt(double when) {
        return Timeout.at(when);
    }

    /**
     * Runs {@code body} with a deadline {@code delay} seconds away; TimeoutException if it passes.
     * The body's own failure is thrown as {@link #run(ThrowingCoroutine)} does: its checked
     * exceptions are declared, to be caught by type.
     */
    public static <T, X extends Exception> T timeout(double delay, ThrowingCoroutine<T, X> body) throws X {
        return Timeout.after(delay).run(body);
    }

    /** As {@link #timeout(double, ThrowingCoroutine)} for a body that returns nothing. */
    public static <X extends Exception> void timeout(double delay, ThrowingVoidCoroutine<X> body) throws X {
        Timeout.after(delay).run(body);
    }

    /** As {@link #timeout(double, ThrowingCoroutine)}, handing the body its {@link Timeout} (to read or move the deadline). */
    public static <T, X extends Exception> T timeout(double delay, Timeout.Body<T, X> body) throws X {
        return Timeout.after(delay).run(body);
    }

    /** Runs {@code body} with a deadline at loop time {@code when}; throws as {@link #timeout(double, ThrowingCoroutine)}. */
    public static <T, X extends Exception> T timeoutAt(double when, ThrowingCoroutine<T, X> body) throws X {
        return Timeout.at(when).run(body);
    }

    /** As {@link #timeoutAt(double, ThrowingCoroutine)} for a body that returns nothing. */
    public static <X extends Exception> void timeoutAt(double when, ThrowingVoidCoroutine<X> body) throws X {
        Timeout.at(when).run(body);
    }

    /** As {@link #timeoutAt(double, ThrowingCoroutine)}, handing the body its {@link Timeout}. */
    public static <T, X extends Exception> T timeoutAt(double when, Timeout.Body<T, X> body) throws X {
        return Timeout.at(when).run(body);
    }

    /**
     * Runs a {@link TaskGroup}: {@code body} creates tasks in it; returns when all are done.
     * {@link TaskGroup#call} returns the body's value (a task, a record of tasks, the group).
     */
    public static void taskGroup(TaskGroup.Body body) {
        TaskGroup.run(body);
    }


    // ---- blocking work: toThread, toCpu -----------------------------------------------------

    /**
     * Runs the blocking call {@code fn} on the loop's default executor and awaits its result, so
     * the loop keeps serving other tasks meanwhile (asyncio's {@code to_thread}). The call sees the
     * caller's {@code ContextVar} values (it runs in a copy of the current context). Cancelling the
     * awaiting task does not interrupt the worker; its result is dropped.
     *
     * <p>The valve for blocking I/O (JDBC, a blocking client, file reads): the default executor is
     * one virtual thread per call, so calls do not queue behind a pool size; the JDK's carrier
     * threads (one per core) bound how many run at once. {@code -Djasyncio.executor=platform}
     * selects asyncio's sized pool instead (min(32, cpus + 4) platform threads, the rest queued).
     * For CPU-bound work use {@link #toCpu}.
     */
    public static <T> T toThread(Callable<T> fn) {
        return ToThread.call(fn);
    }

    /**
     * As {@link #toThread}, for CPU-bound work (an RS256 verify, hashing, compression): runs
     * {@code fn} on the loop's CPU executor, one platform thread per core, further calls queued,
     * so CPU-bound calls neither slice the cores thinner nor hold the virtual threads' carriers.
     * Same semantics as {@code toThread}: context copied, not interrupted on cancel, refused after
     * {@link #shutdownDefaultExecutor()}.
     */
    public static <T> T toCpu(Callable<T> fn) {
        return ToCpu.call(fn);
    }

    /**
     * Refuses new work for the default executor (and the {@link #toCpu} executor) and awaits the
     * work already running, without blocking the loop (asyncio's {@code loop.shutdown_default_executor()}).
     */
    public static void shutdownDefaultExecutor() {
        DefaultExecutorShutdown.shutdown(-1);
    }

    /** As {@link #shutdownDefaultExecutor()}, giving up (with a warning) after {@code timeoutSeconds}. */
    public static void shutdownDefaultExecutor(double timeoutSeconds) {
        if (!(timeoutSeconds >= 0)) {
            throw new IllegalArgumentException("timeout must be >= 0 seconds, not " + timeoutSeconds);
        }
        DefaultExecutorShutdown.shutdown(timeoutSeconds);
    }

    // ---- other threads: runCoroutineThreadsafe, CompletionStage, java.util.concurrent.Future --

    /**
     * Submits {@code body} to {@code loop}, which runs on another thread, as a task; the returned
     * future completes with its outcome, and cancelling it cancels the task (asyncio's
     * {@code run_coroutine_threadsafe}). Callable from any thread but the loop's own when blocking
     * on the result.
     */
    public static <T> CompletableFuture<T> runCoroutineThreadsafe(Coroutine<T> body, EventLoop loop) {
        return ThreadsafeCoroutines.submit(body, loop);
    }

    /**
     * As {@link #runCoroutineThreadsafe(Coroutine, EventLoop)}, for a body that returns nothing: the
     * future completes with null.
     */
    public static CompletableFuture<Void> runCoroutineThreadsafe(VoidCoroutine body, EventLoop loop) {
        return ThreadsafeCoroutines.submit(body.asCoroutine(), loop);
    }

    /**
     * The result of a Java {@code CompletionStage} (a {@code CompletableFuture}, an HTTP client's
     * response, a JDBC driver's query...): the calling task suspends until it completes, and
     * resumes on the loop thread. Cancelling the task cancels the stage. Throws the stage's own
     * exception (unwrapped from {@code CompletionException}).
     */
    public static <T> T await(CompletionStage<T> stage) {
        return Tasks.await(JavaFutures.wrap(getRunningLoop(), stage));
    }

    /**
     * A loop future following a {@code java.util.concurrent.Future} (asyncio's
     * {@code wrap_future}); cancelling it cancels the Java future (without interrupting it).
     */
    public static <T> Future<T> wrapFuture(java.util.concurrent.Future<T> future) {
        return JavaFutures.wrap(getRunningLoop(), future);
    }

    // ---- networking: openConnection, startServer, ... ----------------------------------------

    /** Coroutine: a (reader, writer) pair connected to {@code host:port} (asyncio.open_connection). */
    public static StreamConnection openConnection(String host, int port) throws IOException {
        return Streams.openConnection(getRunningLoop(), host, port, ConnectOptions.defaults(), StreamReader.DEFAULT_LIMIT);
    }

    /** As {@link #openConnection(String, int)}, over TLS. */
    public static StreamConnection openConnection(String host, int port, TlsOptions tls) throws IOException {
        return openConnection(host, port, tls, StreamReader.DEFAULT_LIMIT);
    }

    /**
     * As {@link #openConnection(String, int)}, over TLS when {@code tls} is not null, with the
     * reader's buffer limit (asyncio's {@code limit}, default 64 KiB: the longest line
     * {@code readline} accepts, and the level at which reading pauses).
     */
    public static StreamConnection openConnection(String host, int port, TlsOptions tls, int limit) throws IOException {
        return Streams.openConnection(getRunningLoop(), host, port, ConnectOptions.defaults().withTls(tls), limit);
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

    /** As {@link #startServer(ClientConnectedCallback, String, int, ServerOptions)}, with each reader's buffer {@code limit}. */
    public static Server startServer(ClientConnectedCallback callback, String host, int port, ServerOptions options,
                                     int limit) throws IOException {
        return Streams.startServer(getRunningLoop(), callback, host, port, options, limit);
    }

    /** Coroutine: a (reader, writer) pair over the Unix domain socket at {@code path}. */
    public static StreamConnection openUnixConnection(Path path) throws IOException {
        return Streams.openUnixConnection(getRunningLoop(), path, null, StreamReader.DEFAULT_LIMIT);
    }

    /** Coroutine: a stream server on the Unix domain socket at {@code path}. */
    public static Server startUnixServer(ClientConnectedCallback callback, Path path) throws IOException {
        return Streams.startUnixServer(getRunningLoop(), callback, path, ServerOptions.defaults(), StreamReader.DEFAULT_LIMIT);
    }

    // ---- child processes: createSubprocessExec, createSubprocessShell -------------------------

    /**
     * Starts {@code program} with {@code args} on the running loop (asyncio.create_subprocess_exec),
     * its stdin, stdout and stderr inherited: see {@link SubprocessOptions} for pipes.
     */
    public static Subprocess createSubprocessExec(String program, String... args) throws IOException {
        return createSubprocessExec(SubprocessOptions.defaults(), program, args);
    }

    /** As {@link #createSubprocessExec(String, String...)}, with pipes, directory, environment. */
    public static Subprocess createSubprocessExec(SubprocessOptions options, String program, String... args)
            throws IOException {
        return Subprocesses.createSubprocessExec(getRunningLoop(), Subprocesses.argv(program, args), options);
    }

    /** Runs {@code cmd} with {@code /bin/sh -c} on the running loop (asyncio.create_subprocess_shell). */
    public static Subprocess createSubprocessShell(String cmd) throws IOException {
        return createSubprocessShell(cmd, SubprocessOptions.defaults());
    }

    /** As {@link #createSubprocessShell(String)}, with pipes, directory, environment. */
    public static Subprocess createSubprocessShell(String cmd, SubprocessOptions options) throws IOException {
        return Subprocesses.createSubprocessShell(getRunningLoop(), cmd, options);
    }

    // ---- call graphs: captureCallGraph, printCallGraph, formatCallGraph ----------------------

    /**
     * The current task's call graph (asyncio 3.14's {@code capture_call_graph()}): where it is
     * (the caller's frames) and the chain of tasks awaiting it; null outside a task.
     */
    public static FutureCallGraph captureCallGraph() {
        return CallGraphs.captureCurrent();
    }

    /** The call graph of {@code future} (a task: its suspended frames) and what awaits it. Call on its loop's thread. */
    public static FutureCallGraph captureCallGraph(Future<?> future) {
        return CallGraphs.capture(future);
    }

    /** {@link #captureCallGraph(Future)} as asyncio's {@code print_call_graph} prints it (its {@code file=StringIO} pattern). */
    public static String formatCallGraph(Future<?> future) {
        return CallGraphs.format(CallGraphs.capture(future));
    }

    /** Prints the current task's call graph to {@code System.out}; nothing outside a task. */
    public static void printCallGraph() {
        FutureCallGraph graph = CallGraphs.captureCurrent();
        if (graph != null) {
            CallGraphs.print(graph, System.out);
        }
    }

    /** Prints the call graph of {@code future} to {@code out}. */
    public static void printCallGraph(Future<?> future, java.io.PrintStream out) {
        CallGraphs.print(CallGraphs.capture(future), out);
    }
}
