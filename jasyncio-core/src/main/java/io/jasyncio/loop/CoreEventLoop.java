package io.jasyncio.loop;

import io.jasyncio.loop.spi.EventLoopProvider;
import io.jasyncio.loop.spi.IoRegistration;
import io.jasyncio.loop.spi.LoopBackend;
import io.jasyncio.loop.spi.Poller;
import io.jasyncio.loop.spi.ReadyCallback;
import io.jasyncio.util.CreationStack;
import io.jasyncio.util.ResourceWarnings;
import io.jasyncio.context.Context;
import io.jasyncio.context.CurrentContext;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.SelectableChannel;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The event loop: one thread, three data structures, one readable cycle ({@link #runOnce()}).
 *
 * <ul>
 *   <li>{@code ready}: FIFO of handles (and of tasks, each queued as its own step); {@code callSoon} appends.</li>
 *   <li>{@code timers}: binary heap of timer handles by (deadline, sequence); it counts its
 *       cancelled ones and purges them lazily, with asyncio's thresholds ({@link TimerHeap}).</li>
 *   <li>{@code poller}: the I/O multiplexer, the only place the loop sleeps.</li>
 * </ul>
 * Other threads get in only through {@link #callSoonThreadsafe}: a lock-free queue plus a
 * poller wake-up. The library's one loop class: what differs between nio, epoll and io_uring is
 * the {@link LoopBackend} its {@link EventLoopProvider} opens for it (the poller, and what the
 * backend offers the layers above, such as a completion backend's transports).
 */
final class CoreEventLoop implements FutureLoop {
    private static final System.Logger LOG = System.getLogger("io.jasyncio.loop");

    static {
        // Loaded with the loop, not at the first setResult: that may come when no descriptor is
        // left to open its class file, and a class that failed to load fails for good.
        DebugThreadCheck.active();
    }

    /** asyncio's cap on one select timeout: one day. */
    static final long MAXIMUM_SELECT_TIMEOUT_NANOS = 24L * 3600 * 1_000_000_000L;

    private final String implementation;
    private final LoopBackend backend;
    private final Poller<?> poller;
    /** Handles, and tasks queued as their own step ({@link #enqueueStep}): a task's step needs no handle. */
    private final ArrayDeque<Object> ready = new ArrayDeque<>(1024);
    private final TimerHeap timers = new TimerHeap();
    private final ConcurrentLinkedQueue<Handle> threadsafe = new ConcurrentLinkedQueue<>();
    private final Poller.IoEventSink<IoRegistration> onIoEvent = this::onIoEvent;
    private final Context scratchContext = Context.empty();
    private LoopClock clock = LoopClock.monotonic();

    private CurrentContext currentContext;
    private ContextOfThread lastCaller;
    private long timerSequence;
    private boolean stopping;
    private volatile boolean closed;
    private final UnretrievedExceptions unretrievedExceptions;
    private volatile Thread thread;

    private ExceptionHandler exceptionHandler;
    private boolean debug = DebugDefaults.enabled();
    private double slowCallbackDuration = 0.1;
    private LoopObserver observer;
    /** The handle {@link #runHandleObserved} runs now (null between handles): eager steps inside it are reported with it. */
    private Handle observedHandle;
    /** Eager steps running now inside {@link #observedHandle}, nested ones included; the outermost one started at {@link #eagerStart}. */
    private int eagerDepth;
    private long eagerStart;
    /** Debug mode's tally of the eager steps in the running handle: made at the first one. */
    private EagerSteps eagerSteps;
    private Object[] locals = new Object[8];
    private final ResourceWarnings.Tracker unclosedWarning;

    /** A loop over the backend {@code provider} opens for it: its one wait is that backend's poller. */
    @SuppressWarnings("this-escape") // the backend, the Cleaner and the registry only keep this loop
    CoreEventLoop(EventLoopProvider provider) {
        this.implementation = provider.name();
        try {
            this.backend = Objects.requireNonNull(provider.openBackend(this), "backend");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the " + implementation + " loop's backend", e);
        }
        this.poller = Objects.requireNonNull(backend.poller(), "poller");
        ReportsReady.ensure();
        this.unretrievedExceptions = new UnretrievedExceptions(this);
        if (debug) {
            DebugThreadCheck.debugTurnedOn();
        }
        this.unclosedWarning = ResourceWarnings.track(this, "event loop <" + implementation + "@"
                + Integer.toHexString(System.identityHashCode(this)) + ">", debug);
        EventLoops.loopCreated(this);
    }

    // =========================================================================================
    // The one iteration
    // =========================================================================================

    /**
     * One iteration: select with a timeout that is exactly the time to the nearest timer (zero
     * if callbacks are ready, none at all if nothing is pending); turn readiness into callbacks;
     * move due timers to the ready queue; run a snapshot of the ready queue. Callbacks added
     * during the drain wait for the next iteration, so nothing starves I/O. The {@link LoopClock}
     * has the last word on the wait: a virtual clock polls instead, and jumps to the next timer
     * when the poll brought nothing.
     */
    void runOnce() {
        timers.dropCancelled();                       // asyncio's lazy purge of cancelled timers
        long timeout = ready.isEmpty() && threadsafe.isEmpty() && !stopping
                ? clock.selectTimeout(nanosUntilNextTimer()) : 0; // -1 = block until I/O or another thread
        select(timeout);                              // the ONLY place the loop sleeps
        drainThreadsafeQueue();                       // callSoonThreadsafe submissions join ready
        long now = nanoTime();                        // the clock, read once after the wait
        if (ready.isEmpty() && !stopping) {           // nothing came: a virtual clock jumps to the next timer
            now = clock.idle(now, timers.nanosUntilNextDue(now));
        }
        int moved = timers.moveDueTo(ready, now);     // due timers join, in deadline order
        int ntodo = ready.size();                     // snapshot: callbacks added during the
        LoopObserver obs = observer;                  // drain run in the NEXT iteration
        boolean instrumented = obs != null || debug;  // decided once per iteration: the plain path stays plain
        if (obs != null) {
            obs.beforeDrain(moved, ntodo);
        }
        for (int i = 0; i < ntodo; i++) {
            Object next = ready.poll();
            if (next instanceof Handle h) {
                if (!h.isCancelled()) {
                    if (instrumented) {
                        runHandleObserved(h, null, obs);
                    } else {
                        runHandle(h);
                    }
                }
            } else if (instrumented) {
                Future<?> task = (Future<?>) next;
                runHandleObserved(task.stepAsHandle(), task, obs); // observers see a task's step as a handle
            } else {
                runStep((Future<?>) next);
            }
        }
        if (obs != null) {
            obs.iterationFinished();
        }
    }

    /** The time to the nearest timer (-1: none, block), capped at asyncio's one day. */
    private long nanosUntilNextTimer() {
        return Math.min(timers.nanosUntilNextDue(nanoTime()), MAXIMUM_SELECT_TIMEOUT_NANOS);
    }

    private int select(long timeoutNanos) {
        LoopObserver obs = observer;
        if (obs != null) {
            obs.beforeSelect(timeoutNanos, ready.size(), timers.size());
        }
        long selectStart = obs != null ? System.nanoTime() : 0;
        int events;
        try {
            events = poller.select(timeoutNanos, onIoEvent);
        } catch (IOException e) {
            throw new UncheckedIOException("poller failed", e);
        }
        if (Thread.interrupted()) {
            // A selector returns at once while its thread is interrupted: left set, the flag would
            // turn every later select into a busy spin. Loops end with stop(), not interrupts.
            LOG.log(System.Logger.Level.WARNING, "the event loop thread was interrupted; interrupt cleared, "
                    + "loop still running (stop it with callSoonThreadsafe(loop::stop))");
        }
        if (obs != null) {
            obs.afterSelect(events, System.nanoTime() - selectStart);
        }
        return events;
    }

    /** Readiness becomes callbacks: the channel's reader and/or writer handle joins the queue. */
    private void onIoEvent(IoRegistration registration, int readyOps) {
        if ((readyOps & Poller.READ) != 0) {
            Handle reader = (Handle) registration.reader();
            if (reader != null && !reader.isCancelled()) {
                ready.add(reader);
            }
        }
        if ((readyOps & Poller.WRITE) != 0) {
            Handle writer = (Handle) registration.writer();
            if (writer != null && !writer.isCancelled()) {
                ready.add(writer);
            }
        }
    }

    private void drainThreadsafeQueue() {
        Handle h;
        while ((h = threadsafe.poll()) != null) {
            ready.add(h);
        }
    }

    private void runHandle(Handle h) {
        CurrentContext cc = currentContext;
        Object context = h.context;
        Context previous = context instanceof Context explicit ? cc.enter(explicit) : cc.enterSnapshot(context, scratchContext);
        try {
            h.callback.run();
        } catch (Throwable t) {
            reportCallbackFailure(h, t);
        } finally {
            cc.exit(previous);
        }
    }

    /** Runs {@code h}, or the step of {@code task} that {@code h} stands for, under the observer's and debug mode's watch. */
    private void runHandleObserved(Handle h, Future<?> task, LoopObserver obs) {
        long start = System.nanoTime();
        if (obs != null) {
            obs.handleStarting(h, start);
        }
        observedHandle = h;
        try {
            if (task != null) {
                runStep(task);
            } else {
                runHandle(h);
            }
        } finally {
            observedHandle = null;
            eagerDepth = 0;
        }
        long took = System.nanoTime() - start;
        if (obs != null) {
            obs.handleFinished(h, took);
        }
        EagerSteps inside = eagerSteps;
        if (debug && took >= slowCallbackDuration * 1e9) {
            String eager = inside != null ? inside.describe() : ""; // asyncio's line, then the eager steps that held the loop
            LOG.log(System.Logger.Level.WARNING, () -> String.format("Executing %s took %.3f seconds", h.describeForReport(), took / 1e9) + eager);
        }
        if (inside != null) {
            inside.clear();
        }
    }

    /**
     * A task's eager step starts inside the handle {@link #runHandleObserved} runs (the task
     * layer asks only when debug mode or an observer is on): true when it is the outermost one,
     * which is timed and reported with the handle. Elsewhere (no handle under watch, or inside
     * another eager step) false, and the step is not reported on its own.
     */
    boolean eagerStepStarting(Future<?> task) {
        if (observedHandle == null || eagerDepth++ > 0) {
            return false;
        }
        eagerStart = System.nanoTime();
        LoopObserver obs = observer;
        if (obs != null) {
            obs.eagerStepStarting(task.stepAsHandle(), eagerStart);
        }
        return true;
    }

    /** The eager step {@link #eagerStepStarting} was told of returned; {@code outermost} is what it answered. */
    void eagerStepFinished(Future<?> task, boolean outermost) {
        if (observedHandle == null) {
            return;
        }
        eagerDepth--;
        if (!outermost) {
            return;
        }
        long took = System.nanoTime() - eagerStart;
        Handle step = task.stepAsHandle();
        if (debug) {
            if (eagerSteps == null) {
                eagerSteps = new EagerSteps();
            }
            eagerSteps.add(step, took);
        }
        LoopObserver obs = observer;
        if (obs != null) {
            obs.eagerStepFinished(step, took);
        }
    }

    /** A task's step, the task queued as itself: it enters its own context. */
    private void runStep(Future<?> task) {
        try {
            task.runAsStep(currentContext);
        } catch (Throwable t) {
            reportCallbackFailure(task.stepAsHandle(), t);
        }
    }

    private void reportCallbackFailure(Handle h, Throwable t) {
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("message", "Exception in callback " + Handle.describe(h.callback));
        context.put("exception", t);
        context.put("handle", h);
        callExceptionHandler(context);
    }

    // =========================================================================================
    // Scheduling
    // =========================================================================================

    @Override
    public Handle callSoon(Runnable callback) {
        checkOpenAndOwned("callSoon");
        Handle h = new Handle(this, Objects.requireNonNull(callback, "callback"), contextSnapshot(), null);
        ready.add(h);
        return h;
    }

    @Override
    public Handle callSoon(Runnable callback, Context context) {
        checkOpenAndOwned("callSoon");
        Handle h = new Handle(this, Objects.requireNonNull(callback, "callback"), null, Objects.requireNonNull(context, "context"));
        ready.add(h);
        return h;
    }

    @Override
    public Handle newReusableHandle(Runnable callback, Context context) {
        return new Handle(this, Objects.requireNonNull(callback, "callback"), null, Objects.requireNonNull(context, "context"));
    }

    @Override
    public void enqueue(ReadyCallback callback) {
        checkOpenAndOwned("callSoon");
        ready.add((Handle) callback); // the loop's own handle (newReusableHandle), never a backend's type
    }

    @Override
    public void enqueueStep(Future<?> task) {
        checkOpenAndOwned("callSoon");
        ready.add(task);
    }

    @Override
    public TimerHandle callLater(double delaySeconds, Runnable callback) {
        if (Double.isNaN(delaySeconds)) {
            throw new IllegalArgumentException("delay must be a number, not NaN");
        }
        long now = nanoTime();
        return schedule(now + secondsToNanos(delaySeconds), now / 1e9 + delaySeconds, callback);
    }

    @Override
    public TimerHandle callAt(double when, Runnable callback) {
        if (Double.isNaN(when)) {
            throw new IllegalArgumentException("when must be a number, not NaN");
        }
        return schedule(secondsToNanos(when), when, callback);
    }

    @Override
    public TimerHandle callAtNanos(long whenNanos, Runnable callback) {
        return schedule(whenNanos, whenNanos / 1e9, callback);
    }

    /** {@code when} is what the handle's when() returns; {@code whenNanos} is when it runs. */
    private TimerHandle schedule(long whenNanos, double when, Runnable callback) {
        checkOpenAndOwned("callAt");
        TimerHandle h = new TimerHandle(this, whenNanos, when, timerSequence++, Objects.requireNonNull(callback, "callback"),
                contextSnapshot(), null);
        timers.push(h);
        LoopObserver obs = observer;
        if (obs != null) {
            obs.timerScheduled(h);
        }
        return h;
    }

    private static long secondsToNanos(double seconds) {
        double nanos = seconds * 1e9;
        if (nanos >= Long.MAX_VALUE / 2.0) {
            return Long.MAX_VALUE / 2;
        }
        if (nanos <= Long.MIN_VALUE / 2.0) {
            return Long.MIN_VALUE / 2;
        }
        return (long) nanos;
    }

    @Override
    public Handle callSoonThreadsafe(Runnable callback) {
        checkOpen();
        Handle h = new Handle(this, Objects.requireNonNull(callback, "callback"), Context.snapshot(), null);
        threadsafe.add(h);
        poller.wakeup();
        return h;
    }

    @Override
    public double time() {
        return nanoTime() / 1e9;
    }

    @Override
    public long nanoTime() {
        return clock.nanoTime();
    }

    @Override
    public LoopClock clock() {
        return clock;
    }

    @Override
    public void setClock(LoopClock clock) {
        checkOpenAndOwned("setClock");
        Objects.requireNonNull(clock, "clock");
        if (isRunning() || !timers.isEmpty()) {
            throw new IllegalStateException("set the clock before the loop runs or schedules a timer: "
                    + "their deadlines are on the old clock");
        }
        this.clock = clock;
    }

    /** {@link Context#snapshot()} of the calling thread, without a ThreadLocal lookup when it can. */
    @Override
    public Object contextSnapshot() {
        CurrentContext cc = currentContext;
        if (cc == null || thread != Thread.currentThread()) {
            cc = callerContext();
        }
        return cc.snapshot();
    }

    @Override
    public Context copyCurrentContext() {
        return Context.fromSnapshot(contextSnapshot());
    }

    /**
     * The calling thread's context holder when it is not the running loop's (usually setup code
     * scheduling before the loop runs): remembered for the last such caller, as a ThreadLocal lookup per call
     * would cost as much as the rest of callSoon. One immutable pair, so racing callers cannot
     * mix one thread with another's holder.
     */
    private CurrentContext callerContext() {
        Thread caller = Thread.currentThread();
        ContextOfThread last = lastCaller;
        if (last == null || last.thread != caller) {
            lastCaller = last = new ContextOfThread(caller, CurrentContext.ofThisThread());
        }
        return last.current;
    }

    private record ContextOfThread(Thread thread, CurrentContext current) {
    }

    // =========================================================================================
    // Running
    // =========================================================================================

    @Override
    public void runForever() {
        checkOpen();
        if (thread != null) {
            throw new IllegalStateException("This event loop is already running");
        }
        if (RunningLoop.get() != null) {
            throw new IllegalStateException("Cannot run the event loop while another loop is running on this thread");
        }
        thread = Thread.currentThread();
        RunningLoop.set(this);
        currentContext = CurrentContext.ofThisThread();
        try {
            while (true) {
                runOnce();
                if (stopping) {
                    break;
                }
            }
        } finally {
            stopping = false;
            currentContext = null;
            RunningLoop.clear();
            thread = null;
        }
    }

    @Override
    public <T> T runUntilComplete(Future<T> future) {
        checkOpen();
        Objects.requireNonNull(future, "future");
        if (future.loop != this) {
            throw new IllegalArgumentException("The future belongs to a different loop than this one");
        }
        Consumer<Future<T>> stopWhenDone = f -> stop();
        future.addDoneCallback(stopWhenDone);
        try {
            runForever();
        } finally {
            future.removeDoneCallback(stopWhenDone);
        }
        if (!future.isDone()) {
            throw new IllegalStateException("Event loop stopped before Future completed.");
        }
        return future.result();
    }

    @Override
    public void stop() {
        // From another thread the flag would go unseen while the loop sleeps in select: fail loudly.
        checkOwned("stop");
        stopping = true;
    }

    @Override
    public boolean isRunning() {
        return thread != null;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public Thread thread() {
        return thread;
    }

    @Override
    public void close() {
        if (isRunning()) {
            throw new IllegalStateException("Cannot close a running event loop");
        }
        if (closed) {
            return;
        }
        // Failures nobody retrieved are said now at the latest, while the handler still sees an open loop.
        unretrievedExceptions.reportAll();
        closed = true;
        unclosedWarning.closed();
        SignalHandlers.removeAll(this); // as asyncio's close(): the process's signals go back to the JVM
        lastCaller = null;
        for (Object queued : ready) {
            if (queued instanceof Future<?> task) {
                task.stepDropped(); // a task the queue no longer holds must stay collectable
            }
        }
        ready.clear();
        threadsafe.clear();
        timers.clear();
        try {
            poller.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the poller failed", e);
        }
        DefaultExecutor.of(this).closeWithLoop(); // as asyncio: do not wait for running work
        EventLoops.loopClosed(this);
    }

    @Override
    public <T> Future<T> createFuture() {
        return new Future<>(this);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("Event loop is closed");
        }
    }

    /** Loop-thread-only operations fail loudly from another thread instead of corrupting state. */
    private void checkOpenAndOwned(String operation) {
        if (thread == Thread.currentThread()) {
            return; // the loop runs on this thread: owned, and open (a running loop cannot be closed)
        }
        if (closed) {
            throw new IllegalStateException("Event loop is closed");
        }
        checkOwned(operation);
    }

    private void checkOwned(String operation) {
        Thread owner = thread;
        if (owner != null && owner != Thread.currentThread() && RunningLoop.get() != this) { // else a task body's thread
            throw new IllegalStateException(operation + " called from thread '" + Thread.currentThread().getName()
                    + "' but the loop runs on '" + owner.getName() + "': use callSoonThreadsafe");
        }
    }

    // =========================================================================================
    // I/O
    // =========================================================================================

    @Override
    public void addReader(SelectableChannel channel, Runnable callback) {
        checkOpenAndOwned("addReader");
        watch(poller, channel, new Handle(this, Objects.requireNonNull(callback, "callback"), contextSnapshot(), null), Poller.READ);
    }

    @Override
    public boolean removeReader(SelectableChannel channel) {
        if (closed) {
            return false;
        }
        checkOpenAndOwned("removeReader");
        return unwatch(poller, channel, Poller.READ);
    }

    @Override
    public void addWriter(SelectableChannel channel, Runnable callback) {
        checkOpenAndOwned("addWriter");
        watch(poller, channel, new Handle(this, Objects.requireNonNull(callback, "callback"), contextSnapshot(), null), Poller.WRITE);
    }

    @Override
    public boolean removeWriter(SelectableChannel channel) {
        if (closed) {
            return false;
        }
        checkOpenAndOwned("removeWriter");
        return unwatch(poller, channel, Poller.WRITE);
    }

    /** {@code handle} becomes {@code channel}'s reader or writer ({@code side}), replacing the one before. */
    private static <R extends IoRegistration> void watch(Poller<R> poller, SelectableChannel channel, Handle handle,
                                                         int side) {
        Objects.requireNonNull(channel, "channel");
        R reg = poller.registrationOf(channel);
        if (reg == null) {
            reg = poller.newRegistration(channel);
        }
        if (side == Poller.READ) {
            reg.setReader(handle);
        } else {
            reg.setWriter(handle);
        }
        updateInterest(poller, reg);
    }

    /** Cancels and drops {@code channel}'s reader or writer ({@code side}); false when it had none. */
    private static <R extends IoRegistration> boolean unwatch(Poller<R> poller, SelectableChannel channel, int side) {
        R reg = poller.registrationOf(channel);
        ReadyCallback handle = reg == null ? null : side == Poller.READ ? reg.reader() : reg.writer();
        if (handle == null) {
            return false;
        }
        handle.cancel();
        if (side == Poller.READ) {
            reg.setReader(null);
        } else {
            reg.setWriter(null);
        }
        updateInterest(poller, reg);
        return true;
    }

    private static <R extends IoRegistration> void updateInterest(Poller<R> poller, R reg) {
        try {
            poller.setInterest(reg, reg.interest());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot watch " + reg.channel(), e);
        }
    }

    @Override
    public <T> T backendFeature(Class<T> type) {
        return backend.feature(Objects.requireNonNull(type, "type"));
    }

    @Override
    public String implementationName() {
        return implementation;
    }

    // =========================================================================================
    // Blocking work
    // =========================================================================================

    @Override
    public <T> Future<T> runInExecutor(Executor executor, Callable<T> fn) {
        checkOpenAndOwned("runInExecutor");
        Objects.requireNonNull(fn, "fn");
        Executor target = executor != null ? executor : DefaultExecutor.of(this).forNewWork();
        Future<T> future = createFuture();
        LoopClock workClock = clock;
        // As asyncio, fn runs in the worker's own context; toThread is what carries the caller's.
        target.execute(() -> {
            T value = null;
            Throwable failure = null;
            try {
                value = fn.call();
            } catch (Throwable t) {
                failure = t;
            }
            deliver(future, value, failure, workClock);
        });
        // Outstanding work keeps a virtual clock at real speed until its result is delivered (on this
        // thread, so never before this line).
        workClock.blockingWorkStarted();
        return future;
    }

    private <T> void deliver(Future<T> future, T value, Throwable failure, LoopClock workClock) {
        try {
            callSoonThreadsafe(() -> {
                workClock.blockingWorkEnded();
                if (future.isCancelled()) {
                    return; // the awaiting side gave up: drop the result, as asyncio does
                }
                if (failure != null) {
                    future.setException(failure);
                } else {
                    future.setResult(value);
                }
            });
        } catch (IllegalStateException closedMeanwhile) {
            LOG.log(System.Logger.Level.DEBUG, "executor result dropped: the loop is closed");
        }
    }

    @Override
    public void setDefaultExecutor(Executor executor) {
        DefaultExecutor.of(this).set(executor);
    }

    // =========================================================================================
    // Errors
    // =========================================================================================

    @Override
    public void setExceptionHandler(ExceptionHandler handler) {
        this.exceptionHandler = handler;
    }

    @Override
    public ExceptionHandler getExceptionHandler() {
        return exceptionHandler;
    }

    /**
     * As asyncio's {@code call_exception_handler}: nothing a handler throws ends the loop, short
     * of a {@link VirtualMachineError}. A failing handler is reported by the default one; if that
     * fails too (a logger that cannot open its files when descriptors run out, say), the
     * {@linkplain #lastResortReport last resort} writes both to {@code System.err}.
     */
    @Override
    public void callExceptionHandler(Map<String, Object> context) {
        ExceptionHandler handler = exceptionHandler;
        if (handler == null) {
            try {
                defaultExceptionHandler(context);
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable t) {
                lastResortReport("Exception in default exception handler", t, context);
            }
            return;
        }
        try {
            handler.handle(this, context);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable t) {
            try {
                Map<String, Object> nested = new LinkedHashMap<>();
                nested.put("message", "Unhandled error in exception handler");
                nested.put("exception", t);
                nested.put("context", context);
                defaultExceptionHandler(nested);
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable t2) {
                lastResortReport("Exception in default exception handler while handling an unexpected error "
                        + "in custom exception handler", t2, context);
            }
        }
    }

    /**
     * The report that cannot fail: plain writes to {@code System.err}, no logger, no formatter,
     * nothing that opens a file or loads a class that is not loaded yet. What it cannot write is
     * dropped.
     */
    private static void lastResortReport(String why, Throwable failure, Map<String, Object> context) {
        try {
            PrintStream err = System.err;
            err.println(new StringBuilder(why).append(": ").append(failure));
            err.println(new StringBuilder("while reporting: ").append(context.get("message"))
                    .append(": ").append(context.get("exception")));
            if (context.get("exception") instanceof Throwable original) {
                original.printStackTrace(err);
            }
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable ignored) {
            // nowhere left to write
        }
    }

    @Override
    public void defaultExceptionHandler(Map<String, Object> context) {
        Object message = context.getOrDefault("message", "Unhandled exception in event loop");
        StringBuilder text = new StringBuilder(String.valueOf(message));
        for (Map.Entry<String, Object> e : context.entrySet()) {
            if (e.getValue() instanceof StackTraceElement[] stack) { // source_traceback, in debug mode
                text.append("\n").append(CreationStack.format(stack));
            } else if (!e.getKey().equals("message") && !e.getKey().equals("exception")) {
                text.append("\n").append(e.getKey()).append(": ").append(e.getValue());
            }
        }
        Object exception = context.get("exception");
        if (exception instanceof Throwable t) {
            LOG.log(System.Logger.Level.ERROR, text.toString(), t);
        } else {
            LOG.log(System.Logger.Level.ERROR, text.toString());
        }
    }

    @Override
    public UnretrievedExceptions unretrievedExceptions() {
        return unretrievedExceptions;
    }

    @Override
    public void reportUnretrieved(Map<String, Object> context) {
        if (!closed) {
            try {
                callSoonThreadsafe(() -> callExceptionHandler(context));
                return;
            } catch (IllegalStateException closedMeanwhile) {
                // fall through: report it here
            }
        }
        synchronized (this) {
            callExceptionHandler(context);
        }
    }

    // =========================================================================================
    // Debugging and observation
    // =========================================================================================

    @Override
    public void setDebug(boolean enabled) {
        this.debug = enabled;
        if (enabled) {
            DebugThreadCheck.debugTurnedOn();
        }
    }

    @Override
    public boolean getDebug() {
        return debug;
    }

    @Override
    public double getSlowCallbackDuration() {
        return slowCallbackDuration;
    }

    @Override
    public void setSlowCallbackDuration(double seconds) {
        this.slowCallbackDuration = seconds;
    }

    @Override
    public void setObserver(LoopObserver observer) {
        this.observer = observer;
    }

    @Override
    public LoopObserver getObserver() {
        return observer;
    }

    @Override
    public int readyCount() {
        return ready.size();
    }

    @Override
    public int scheduledTimerCount() {
        return timers.size();
    }

    @Override
    public int cancelledTimerCount() {
        return timers.cancelledCount();
    }

    @Override
    public long timersScheduledTotal() {
        return timerSequence;
    }

    @Override
    public long timersCancelledTotal() {
        return timers.cancelledTotal();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T local(LoopLocal<T> key) {
        Object[] l = locals;
        if (key.index >= l.length) {
            locals = l = Arrays.copyOf(l, Math.max(key.index + 1, l.length * 2));
        }
        Object value = l[key.index];
        if (value == null) {
            value = key.initial.apply(this);
            l[key.index] = value;
        }
        return (T) value;
    }

    @Override
    public String toString() {
        return "<EventLoop " + implementation + " running=" + isRunning() + " closed=" + closed + " debug=" + debug + ">";
    }
}
