package io.jasyncio.loop;

import io.jasyncio.context.Context;
import io.jasyncio.context.CurrentContext;

import java.io.IOException;
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
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/**
 * The event loop: one thread, three data structures, one readable cycle ({@link #runOnce()}).
 *
 * <ul>
 *   <li>{@code ready}: FIFO of handles; {@code callSoon} appends.</li>
 *   <li>{@code timers}: binary heap of timer handles by (deadline, sequence); cancelled ones
 *       are purged lazily, with asyncio's thresholds.</li>
 *   <li>{@code poller}: the I/O multiplexer, the only place the loop sleeps.</li>
 * </ul>
 * Other threads get in only through {@link #callSoonThreadsafe}: a lock-free queue plus a
 * poller wake-up. Subclasses choose the poller.
 */
public abstract class BaseEventLoop implements LoopContract {
    private static final System.Logger LOG = System.getLogger("io.jasyncio.loop");
    private static final ThreadLocal<BaseEventLoop> RUNNING = new ThreadLocal<>();

    /** Purge cancelled timers only once the heap holds more than this many... */
    static final int MIN_SCHEDULED_TIMER_HANDLES = 100;
    /** ...and more than this fraction of them are cancelled (asyncio's thresholds). */
    static final double MIN_CANCELLED_TIMER_HANDLES_FRACTION = 0.5;
    /** asyncio's cap on one select timeout: one day. */
    static final long MAXIMUM_SELECT_TIMEOUT_NANOS = 24L * 3600 * 1_000_000_000L;

    private final Poller poller;
    private final ArrayDeque<Handle> ready = new ArrayDeque<>(1024);
    private final TimerHeap timers = new TimerHeap();
    private final ConcurrentLinkedQueue<Handle> threadsafe = new ConcurrentLinkedQueue<>();
    private final Poller.IoEventSink onIoEvent = this::onIoEvent;
    private final Context scratchContext = Context.empty();

    private CurrentContext currentContext;
    private ContextOfThread lastCaller;
    private long timerSequence;
    private int cancelledTimers;
    private boolean stopping;
    private volatile boolean closed;
    private volatile Thread thread;

    private ExceptionHandler exceptionHandler;
    private boolean debug = DebugDefaults.enabled();
    private double slowCallbackDuration = 0.1;
    private LoopObserver observer;
    private Executor defaultExecutor;
    private boolean defaultExecutorShutdownCalled;
    private Object[] locals = new Object[8];
    private final ResourceWarnings.Tracker unclosedWarning;

    @SuppressWarnings("this-escape") // the Cleaner only watches for this loop's collection
    protected BaseEventLoop(Poller poller) {
        this.poller = Objects.requireNonNull(poller, "poller");
        this.unclosedWarning = ResourceWarnings.track(this, "event loop <" + getClass().getSimpleName() + "@"
                + Integer.toHexString(System.identityHashCode(this)) + ">", debug);
    }

    /** The loop running on the calling thread, or null. */
    static BaseEventLoop runningOnThisThread() {
        return RUNNING.get();
    }

    /** See {@link EventLoops#actAsLoopThread}: a task body's own thread, running only in the loop's turn. */
    static void actAsLoopThread(BaseEventLoop loop) {
        RUNNING.set(loop);
    }

    // =========================================================================================
    // The one iteration
    // =========================================================================================

    /**
     * One iteration: select with a timeout that is exactly the time to the nearest timer (zero
     * if callbacks are ready, none at all if nothing is pending); turn readiness into callbacks;
     * move due timers to the ready queue; run a snapshot of the ready queue. Callbacks added
     * during the drain wait for the next iteration, so nothing starves I/O.
     */
    protected void runOnce() {
        purgeCancelledTimers();
        long timeout = ready.isEmpty() && threadsafe.isEmpty() && !stopping ? nanosUntilNextTimer() : 0;
        LoopObserver obs = observer;
        if (obs != null) {
            obs.beforeSelect(timeout, ready.size(), timers.size());
        }
        long selectStart = obs != null ? System.nanoTime() : 0;
        int events = select(timeout);                 // the ONLY place the loop sleeps
        if (obs != null) {
            obs.afterSelect(events, System.nanoTime() - selectStart);
        }
        drainThreadsafeQueue();                       // callSoonThreadsafe submissions join ready
        int moved = moveDueTimersToReady(nanoTime()); // due timers join, in deadline order
        int ntodo = ready.size();                     // snapshot: callbacks added during the
        if (obs != null) {                            // drain run in the NEXT iteration
            obs.beforeDrain(moved, ntodo);
        }
        if (obs == null && !debug) {
            for (int i = 0; i < ntodo; i++) {
                Handle h = ready.poll();
                if (!h.isCancelled()) {
                    runHandle(h);
                }
            }
        } else {
            for (int i = 0; i < ntodo; i++) {
                Handle h = ready.poll();
                if (!h.isCancelled()) {
                    runHandleObserved(h, obs);
                }
            }
            if (obs != null) {
                obs.iterationFinished();
            }
        }
    }

    /** Nanoseconds until the earliest timer is due (0 if overdue), or -1 when there is none. */
    private long nanosUntilNextTimer() {
        TimerHandle next = timers.peek();
        if (next == null) {
            return -1;
        }
        long delay = next.deadlineNanos - nanoTime();
        return Math.min(Math.max(0, delay), MAXIMUM_SELECT_TIMEOUT_NANOS);
    }

    private int select(long timeoutNanos) {
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
        return events;
    }

    /** Readiness becomes callbacks: the channel's reader and/or writer handle joins the queue. */
    private void onIoEvent(IoRegistration registration, int readyOps) {
        if ((readyOps & Poller.READ) != 0) {
            Handle reader = registration.reader;
            if (reader != null && !reader.isCancelled()) {
                ready.add(reader);
            }
        }
        if ((readyOps & Poller.WRITE) != 0) {
            Handle writer = registration.writer;
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

    private int moveDueTimersToReady(long now) {
        int moved = 0;
        TimerHandle next;
        while ((next = timers.peek()) != null && next.deadlineNanos <= now) {
            timers.pop();
            if (next.isCancelled()) {
                cancelledTimers--; // cancelled behind a live top: it leaves the heap here, and the count with it
            } else {
                ready.add(next);
                moved++;
            }
        }
        return moved;
    }

    /**
     * Cancelled timers stay in the heap until they reach its top, unless they are many: more than
     * 100 timers with more than half of them cancelled rebuilds the heap without them.
     */
    private void purgeCancelledTimers() {
        int n = timers.size();
        if (n > MIN_SCHEDULED_TIMER_HANDLES && cancelledTimers > n * MIN_CANCELLED_TIMER_HANDLES_FRACTION) {
            timers.purgeCancelled();
            cancelledTimers = 0;
        } else {
            TimerHandle top;
            while ((top = timers.peek()) != null && top.isCancelled()) {
                timers.pop();
                cancelledTimers--;
            }
        }
    }

    void timerCancelled() {
        cancelledTimers++;
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

    private void runHandleObserved(Handle h, LoopObserver obs) {
        long start = System.nanoTime();
        if (obs != null) {
            obs.handleStarting(h, start);
        }
        runHandle(h);
        long took = System.nanoTime() - start;
        if (obs != null) {
            obs.handleFinished(h, took);
        }
        if (debug && took >= slowCallbackDuration * 1e9) {
            LOG.log(System.Logger.Level.WARNING, () -> String.format("Executing %s took %.3f seconds", h.describeForReport(), took / 1e9));
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
    public void enqueue(Handle handle) {
        checkOpenAndOwned("callSoon");
        ready.add(handle);
    }

    @Override
    public TimerHandle callLater(double delaySeconds, Runnable callback) {
        if (Double.isNaN(delaySeconds)) {
            throw new IllegalArgumentException("delay must be a number, not NaN");
        }
        return callAtNanos(nanoTime() + secondsToNanos(delaySeconds), callback);
    }

    @Override
    public TimerHandle callAt(double when, Runnable callback) {
        if (Double.isNaN(when)) {
            throw new IllegalArgumentException("when must be a number, not NaN");
        }
        return callAtNanos(secondsToNanos(when), callback);
    }

    @Override
    public TimerHandle callAtNanos(long whenNanos, Runnable callback) {
        checkOpenAndOwned("callAt");
        TimerHandle h = new TimerHandle(this, whenNanos, timerSequence++, Objects.requireNonNull(callback, "callback"),
                contextSnapshot(), null);
        timers.push(h);
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
        return System.nanoTime();
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
        if (RUNNING.get() != null) {
            throw new IllegalStateException("Cannot run the event loop while another loop is running on this thread");
        }
        thread = Thread.currentThread();
        RUNNING.set(this);
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
            RUNNING.remove();
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
        closed = true;
        unclosedWarning.closed();
        lastCaller = null;
        ready.clear();
        threadsafe.clear();
        timers.clear();
        cancelledTimers = 0;
        try {
            poller.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the poller failed", e);
        }
        if (defaultExecutor instanceof ExecutorService service) {
            service.shutdown(); // as asyncio: do not wait for running work
        }
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
        if (owner != null && owner != Thread.currentThread() && RUNNING.get() != this) { // else a task body's thread
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
        IoRegistration reg = registrationFor(channel);
        reg.reader = new Handle(this, Objects.requireNonNull(callback, "callback"), contextSnapshot(), null);
        updateInterest(reg);
    }

    @Override
    public boolean removeReader(SelectableChannel channel) {
        if (closed) {
            return false;
        }
        checkOpenAndOwned("removeReader");
        IoRegistration reg = poller.registrationOf(channel);
        if (reg == null || reg.reader == null) {
            return false;
        }
        reg.reader.cancel();
        reg.reader = null;
        updateInterest(reg);
        return true;
    }

    @Override
    public void addWriter(SelectableChannel channel, Runnable callback) {
        checkOpenAndOwned("addWriter");
        IoRegistration reg = registrationFor(channel);
        reg.writer = new Handle(this, Objects.requireNonNull(callback, "callback"), contextSnapshot(), null);
        updateInterest(reg);
    }

    @Override
    public boolean removeWriter(SelectableChannel channel) {
        if (closed) {
            return false;
        }
        checkOpenAndOwned("removeWriter");
        IoRegistration reg = poller.registrationOf(channel);
        if (reg == null || reg.writer == null) {
            return false;
        }
        reg.writer.cancel();
        reg.writer = null;
        updateInterest(reg);
        return true;
    }

    private IoRegistration registrationFor(SelectableChannel channel) {
        Objects.requireNonNull(channel, "channel");
        IoRegistration reg = poller.registrationOf(channel);
        return reg != null ? reg : new IoRegistration(channel);
    }

    private void updateInterest(IoRegistration reg) {
        try {
            poller.setInterest(reg, reg.interest());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot watch " + reg.channel, e);
        }
    }

    /** The poller under this loop (for transports built on the same mechanism). */
    protected Poller poller() {
        return poller;
    }

    // =========================================================================================
    // Blocking work
    // =========================================================================================

    @Override
    public <T> Future<T> runInExecutor(Executor executor, Callable<T> fn) {
        checkOpenAndOwned("runInExecutor");
        Objects.requireNonNull(fn, "fn");
        if (executor == null && defaultExecutorShutdownCalled) {
            throw new IllegalStateException("Executor shutdown has been called");
        }
        Executor target = executor != null ? executor : defaultExecutor();
        Future<T> future = createFuture();
        // As asyncio, fn runs in the worker's own context; toThread is what carries the caller's.
        target.execute(() -> {
            T value = null;
            Throwable failure = null;
            try {
                value = fn.call();
            } catch (Throwable t) {
                failure = t;
            }
            deliver(future, value, failure);
        });
        return future;
    }

    private <T> void deliver(Future<T> future, T value, Throwable failure) {
        try {
            callSoonThreadsafe(() -> {
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
        this.defaultExecutor = executor;
    }

    /** The default executor, created on first use. */
    public Executor defaultExecutor() {
        if (defaultExecutor == null) {
            defaultExecutor = DefaultExecutor.create();
        }
        return defaultExecutor;
    }

    @Override
    public Executor defaultExecutorIfCreated() {
        return defaultExecutor;
    }

    /**
     * Refuses further {@code runInExecutor(null, ...)} calls and returns the default executor to
     * shut down (null when none was created): the first half of asyncio's
     * {@code shutdown_default_executor}, whose waiting half lives above the loop.
     */
    @Override
    public Executor beginDefaultExecutorShutdown() {
        checkOpenAndOwned("shutdownDefaultExecutor");
        defaultExecutorShutdownCalled = true;
        return defaultExecutor;
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

    @Override
    public void callExceptionHandler(Map<String, Object> context) {
        ExceptionHandler handler = exceptionHandler;
        if (handler == null) {
            try {
                defaultExceptionHandler(context);
            } catch (Throwable t) {
                LOG.log(System.Logger.Level.ERROR, "Exception in default exception handler", t);
            }
            return;
        }
        try {
            handler.handle(this, context);
        } catch (Throwable t) {
            try {
                Map<String, Object> nested = new LinkedHashMap<>();
                nested.put("message", "Unhandled error in exception handler");
                nested.put("exception", t);
                nested.put("context", context);
                defaultExceptionHandler(nested);
            } catch (Throwable t2) {
                LOG.log(System.Logger.Level.ERROR, "Exception in default exception handler while handling an "
                        + "unexpected error in custom exception handler", t2);
            }
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
    }

    @Override
    public boolean getDebug() {
        return debug;
    }

    @Override
    public double slowCallbackDuration() {
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
        return cancelledTimers;
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
        return "<" + getClass().getSimpleName() + " running=" + isRunning() + " closed=" + closed + " debug=" + debug + ">";
    }
}
