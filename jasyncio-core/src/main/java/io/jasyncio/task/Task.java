package io.jasyncio.task;

import io.jasyncio.context.Context;
import io.jasyncio.context.CurrentContext;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.util.CreationStack;
import io.jasyncio.loop.DebugThreadCheck;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.Handle;
import io.jasyncio.loop.LoopLocal;

import java.lang.ref.Cleaner;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A coroutine driven step by step on a loop, as asyncio's {@code Task}.
 *
 * <p>The body runs on the JVM's {@link TaskEngine} (a JDK continuation, or a virtual thread of its
 * own). Each {@linkplain #runAsStep step} is an entry in the loop's ready queue, the task itself
 * (no handle per task or per step): it resumes the body, which runs until it returns, throws, or
 * awaits a future that is still pending. Awaiting registers the task itself with the future, to
 * be queued when the future is done, and yields; returning from the step hands control back to
 * the loop. Awaiting a future that is already done returns at once, with no yield.
 *
 * <p>Cancellation lands at an await: {@link #cancel(String)} cancels the future the task waits
 * on (or marks the task, if it is between steps), and the await throws {@link CancelledError}.
 *
 * <p>A pending task that nobody references may be garbage-collected, as in asyncio. asyncio
 * then always reports "Task was destroyed but it is pending!"; here only tasks created while
 * the loop is in debug mode are watched for it, because the watch (a {@code Cleaner}
 * registration) would cost more than the rest of creating a task. Outside debug mode such a
 * task just leaves {@link #allTasks}.
 */
public final class Task<T> extends Future<T> {
    private static final Cleaner CLEANER = Cleaner.create();
    private static final AtomicLong COUNTER = new AtomicLong();
    private static final LoopLocal<TaskRegistry> PENDING_TASKS = LoopLocal.withInitial(loop -> new TaskRegistry());

    /** The body as the engine runs it (a continuation, or a virtual thread of its own); {@code run()} is one step. */
    private final TaskBody body;
    /**
     * The task's own context, or, until it changes it or asks for it, the bindings it shares with
     * its creator (a {@code Context.snapshot()}): a copy nobody changes need not exist.
     */
    private Object context;
    /** The coroutine this task runs (its class names it in reports). */
    private final Coroutine<T> origin;
    /** The task's slot in its loop's registry of pending tasks. */
    private final int slot;
    /** An unnamed task's number: its name is "Task-" + number. */
    private final long number;
    private Future<?> waitingOn;
    /** Whether the task is to raise CancelledError at its next await (or before its body starts); it fits in Future's padding. */
    private boolean mustCancel;
    /** Whether the registry holds this task weakly already ({@link #holdWeakly}); in the padding too. */
    private boolean heldWeakly;
    /** The name, the cancel message and count, the budget's count, the observers' handle and the debug-mode watch, which most tasks never need: null until one is set. */
    private Seldom seldom;

    Task(EventLoop loop, Coroutine<T> body, String name, Context context, boolean eager) {
        super(loop);
        Objects.requireNonNull(body, "body");
        this.number = name == null ? COUNTER.incrementAndGet() : 0;
        if (name != null) {
            seldom().name = name;
        }
        this.context = context != null ? context : loopContract().contextSnapshot();
        this.origin = body;
        this.body = TaskEngine.CHOSEN.newBody(this, RUN_BODY); // made next to the task: every step touches both
        // asyncio reports a pending task's destruction always; a Cleaner registration per task
        // costs more than the rest of its creation (and the collector's work when it dies), so
        // we report it in debug mode only, where the creation stack makes the report useful.
        boolean debug = loop.getDebug();
        if (debug) {
            PendingWatch watch = new PendingWatch(loop, getName(), coroutineName(), creationStack());
            seldom().watch = watch;
            CLEANER.register(this, watch);
        }
        // Held strongly while queued or running (the queue or the stack holds it anyway): no weak
        // reference unless nothing else may hold it (holdWeakly).
        this.slot = PENDING_TASKS.get(loop).add(this);
        if (eager) {
            if (debug || loop.getObserver() != null) {
                stepEagerlyWatched();
            } else {
                step();
            }
        } else {
            queueStep(); // the task is its own ready-queue entry: no handle per task
        }
    }

    /** The body's entry point, the same for every task: the engine runs it in the task's first step. */
    private static final Runnable RUN_BODY = Task::runCurrentBody;

    /**
     * A method reference to a static method, not a lambda: measured, the lambda's frames froze
     * 48 bytes bigger (a suspended task's stack chunk 248 B against the bare continuation's 200).
     */
    private static void runCurrentBody() {
        TaskEngine.CHOSEN.current().runBody();
    }

    /** Queues the task's next step; if it cannot be queued, nothing but the registry may hold the task, so it holds it weakly. */
    private void queueStep() {
        try {
            enqueueStep();
        } catch (RuntimeException | Error failed) {
            holdWeakly();
            throw failed;
        }
    }

    /**
     * From now on the registry holds this pending task weakly (as asyncio's WeakSet): called when
     * nothing else may hold it any more, that is, when it waits on a pending future or its queued
     * step is dropped. Once per task at most.
     */
    private void holdWeakly() {
        if (!heldWeakly && !isDone()) {
            heldWeakly = true;
            PENDING_TASKS.get(getLoop()).holdWeakly(slot, this);
        }
    }

    /** The closing loop dropped this task's queued step: only the registry is left to hold it, weakly. */
    @Override
    protected void stepDropped() {
        holdWeakly();
    }

    /** The task whose body is running on this thread now, or null (in a plain callback). */
    public static Task<?> current() {
        return TaskEngine.CHOSEN.current();
    }

    /** The tasks of {@code loop} that are not done yet. */
    public static Set<Task<?>> allTasks(EventLoop loop) {
        return PENDING_TASKS.get(loop).pending();
    }

    /** Tasks created on {@code loop} so far. Read from another thread, the count may be a moment old. */
    public static long createdCount(EventLoop loop) {
        return PENDING_TASKS.get(loop).created();
    }

    /** Tasks of {@code loop} not finished yet (as {@link #allTasks}, without building the set; may be a moment old elsewhere). */
    public static int pendingCount(EventLoop loop) {
        return PENDING_TASKS.get(loop).live();
    }

    /** The task {@code handle} steps, or null when it is another callback: names a slow step's task. */
    public static Task<?> steppedBy(Handle handle) {
        return handle.callback() instanceof TaskBody body ? body.task() : null;
    }

    /**
     * Awaits of already-done futures in this task's current step (or its last one, once the step
     * is over): the awaits that did not yield. Counted only while a {@link CooperativeBudget} is set.
     */
    public int awaitsWithoutSuspendingInStep() {
        Seldom s = seldom;
        return s != null ? s.awaitsWithoutSuspending : 0;
    }

    /** Counts one await of a done future in this step; returns the count so far. */
    int spendAwaitWithoutSuspending() {
        return ++seldom().awaitsWithoutSuspending;
    }

    /** The body was resumed after a suspension: a new step, whose count of awaits without suspending starts at 0. */
    private void newStep() {
        Seldom s = seldom;
        if (s != null) {
            s.awaitsWithoutSuspending = 0;
        }
    }

    // =========================================================================================
    // Stepping
    // =========================================================================================

    /** The body from its first step to its end, on the engine: runs the coroutine, then completes the task with its outcome. */
    void runBody() {
        T result = null;
        Throwable failure = null;
        try {
            if (mustCancel) { // cancelled before its first step: the coroutine never starts
                mustCancel = false;
                throw newCancelledError();
            }
            result = origin.run();
        } catch (Throwable t) {
            failure = t;
        }
        finish(result, failure);
    }

    /** One step, started outside the loop's drain (an eager start). */
    void step() {
        runAsStep(CurrentContext.ofThisThread());
    }

    /**
     * The eager first step under debug mode's or an observer's watch: the loop times it and names
     * this task with the handle it ran in (the slow-callback line, the watchdog, the doctor).
     */
    private void stepEagerlyWatched() {
        boolean outermost = eagerStepStarting();
        try {
            step();
        } finally {
            eagerStepFinished(outermost);
        }
    }

    /**
     * One step, in the task's context: the loop runs it for the task queued as itself. What the
     * body's suspension asks for is done here, once it has suspended, so that none of it is among
     * the frames that freeze (they freeze smaller): a body that awaits a pending future
     * ({@link #suspendOn}) is registered with that future, and one that neither finished nor
     * awaits yielded ({@link #yieldOnce}) and is queued again. Nothing runs between the
     * suspension and this, so the order of callbacks and steps is the same as if the body had
     * done it.
     */
    @Override
    protected void runAsStep(CurrentContext current) {
        runStepInContext(current);
        if (isDone()) {
            return;
        }
        Future<?> awaited = waitingOn;
        if (awaited == null) {
            queueStep(); // it yielded: step again in the next iteration
            return;
        }
        holdWeakly(); // from here on the future's callbacks hold the task, if anything does
        awaited.addDoneStep(this); // the future queues this task's step when it is done
        if (mustCancel && awaited.cancel(seldom.cancelMessage)) {
            mustCancel = false; // the cancellation travels through the future
        }
    }

    private void runStepInContext(CurrentContext current) {
        Object own = context;
        if (!(own instanceof Context)) { // no context of its own yet: step in the bindings it shares
            Context previous = current.enterShared(own, this);
            if (previous != null) {
                try {
                    body.run();
                } finally {
                    Context made = current.exitShared(previous);
                    if (made != null) {
                        context = made; // the step changed it or asked for it: the task's own from now on
                    }
                }
                return;
            }
            context = own = Context.fromSnapshot(own); // nested in another task's such step (an eager start)
        }
        Context previous = current.enter((Context) own);
        try {
            body.run();
        } finally {
            current.exit(previous);
        }
    }

    /**
     * The step as a handle (its callback the body, which names the task), for observers and
     * reports: made on an observed loop's first step of the task, the same object for every step.
     */
    @Override
    protected Handle stepAsHandle() {
        Seldom s = seldom();
        Handle view = s.stepView;
        if (view == null) {
            s.stepView = view = (Handle) loopContract().newReusableHandle(body, getContext());
        }
        return view;
    }

    /** The body's last act: the task leaves the registry and takes the coroutine's outcome. */
    private void finish(T result, Throwable failure) {
        PENDING_TASKS.get(getLoop()).remove(slot);
        PendingWatch watch = seldom != null ? seldom.watch : null;
        if (watch != null) {
            watch.done = true;
        }
        if (failure == null) {
            if (mustCancel) {
                mustCancel = false;
                super.cancel(seldom.cancelMessage);
            } else {
                super.setResult(result);
            }
        } else if (failure instanceof CancelledError cancelled) {
            super.cancel(cancelled.getMessage());
        } else {
            super.setException(failure);
        }
    }

    /**
     * Suspends the running task until {@code future} is done (which it is not yet), then returns
     * its result or throws its exception, or throws {@link CancelledError} if the task was
     * cancelled meanwhile.
     */
    <R> R suspendOn(Future<R> future) {
        if (future.getLoop() != getLoop()) {
            throw new IllegalStateException("Task " + getName() + " got a Future attached to a different loop: " + future);
        }
        if (future == this) {
            throw new IllegalStateException("Task " + getName() + " cannot await itself");
        }
        waitingOn = future; // the step's end registers the task with it (runAsStep)
        try {
            body.suspend();
        } catch (IllegalStateException cannotSuspend) {
            waitingOn = null; // the body goes on: it waits for nothing
            throw cannotSuspend;
        }
        newStep();
        waitingOn = null;
        if (mustCancel) {
            mustCancel = false;
            if (future.isCancelled()) {
                return future.result(); // throws its CancelledError
            }
            throw newCancelledError();
        }
        return future.result();
    }

    /** A bare yield (asyncio's {@code sleep(0)}): step again in the next iteration (the step's end queues the task). */
    void yieldOnce() {
        body.suspend();
        newStep();
        if (mustCancel) {
            mustCancel = false;
            throw newCancelledError();
        }
    }

    private Seldom seldom() {
        Seldom s = seldom;
        if (s == null) {
            seldom = s = new Seldom();
        }
        return s;
    }

    private CancelledError newCancelledError() {
        return CancelledError.of(seldom != null ? seldom.cancelMessage : null);
    }

    // =========================================================================================
    // Cancellation
    // =========================================================================================

    /**
     * Requests cancellation: the task gets a {@link CancelledError} at its next await (or before
     * its body starts). Returns false if the task is already done.
     *
     * <p>As asyncio's, a task that awaits a future cancels that future instead, and when the future
     * is a task, that task in turn, down the chain of awaits: each task on the way counts one
     * request ({@link #cancelling()}), and the cancellation lands where the chain ends (the last
     * future is cancelled, or the last task is marked to raise at its next await). asyncio follows
     * the chain by recursion; here it is a loop, so a chain of any length cannot overflow the stack.
     * A chain that comes back to a task already on it (an await cycle, a deadlock nothing else can
     * end; asyncio's recursion fails with RecursionError there) is broken at the task that closes it:
     * that task stops waiting and raises CancelledError at its await.
     */
    @Override
    public boolean cancel(String message) {
        if (DebugThreadCheck.active()) {
            DebugThreadCheck.check(getLoop(), "Task.cancel");
        }
        if (isDone()) {
            return false;
        }
        Task<?> closesCycle = taskClosingAwaitCycle();
        Task<?> t = this;
        while (true) {
            t.seldom().cancelRequests++;
            Future<?> awaited = t.waitingOn;
            if (t == closesCycle) {
                t.stopWaitingCancelled(message);
                return true;
            }
            if (awaited instanceof Task<?> next && !next.isDone()) {
                t = next; // its cancel() would return true: the request travels on
                continue;
            }
            if (awaited != null && awaited.cancel(message)) {
                // Keep waitingOn: it may be a task that swallows the cancellation, to be cancelled again.
                return true;
            }
            t.mustCancel = true;
            t.seldom.cancelMessage = message;
            return true;
        }
    }

    /** The pending task this task awaits, or null. */
    private Task<?> awaitedTask() {
        return waitingOn instanceof Task<?> next && !next.isDone() ? next : null;
    }

    /**
     * When the chain of awaited tasks from here comes back to a task already on it, the last task
     * before it comes back (the one whose await closes the cycle); else null. Floyd's cycle
     * finding: no memory, two passes at most over the chain.
     */
    private Task<?> taskClosingAwaitCycle() {
        Task<?> slow = this;
        Task<?> fast = this;
        do {
            slow = slow.awaitedTask();
            fast = fast.awaitedTask();
            fast = fast != null ? fast.awaitedTask() : null;
            if (fast == null) {
                return null;
            }
        } while (slow != fast);
        // The tasks meet in the cycle; the cycle's first task is as far from here as from the meeting point.
        Task<?> first = this;
        while (first != slow) {
            first = first.awaitedTask();
            slow = slow.awaitedTask();
        }
        Task<?> closing = first;
        while (closing.awaitedTask() != first) {
            closing = closing.awaitedTask();
        }
        return closing;
    }

    /** Breaks an await cycle here: this task no longer waits for the task it awaits and steps next, raising CancelledError. */
    private void stopWaitingCancelled(String message) {
        Future<?> awaited = waitingOn;
        waitingOn = null;
        mustCancel = true;
        seldom.cancelMessage = message;
        if (awaited.removeDoneStep(this)) {
            queueStep();
        }
    }

    /** Pending cancellation requests: {@code cancel()} calls not yet balanced by {@link #uncancel()}. */
    public int cancelling() {
        return seldom != null ? seldom.cancelRequests : 0;
    }

    /** Decrements the pending cancellation requests; returns the new count. */
    public int uncancel() {
        Seldom s = seldom;
        if (s == null) {
            return 0;
        }
        if (s.cancelRequests > 0) {
            s.cancelRequests--;
            if (s.cancelRequests == 0) {
                mustCancel = false; // as asyncio 3.13: a fully uncancelled task is not cancelled at its next await
            }
        }
        return s.cancelRequests;
    }

    // =========================================================================================
    // Future API a task does not support
    // =========================================================================================

    @Override
    public void setResult(T result) {
        throw new UnsupportedOperationException("Task does not support setResult: its body's return value is its result");
    }

    @Override
    public void setException(Throwable error) {
        throw new UnsupportedOperationException("Task does not support setException: its body's exception is its exception");
    }

    // =========================================================================================
    // Names and reports
    // =========================================================================================

    /** The task's name ({@code Task-N} unless one was given). */
    public String getName() {
        // Built each time rather than kept: reports ask from other threads (the watchdog's), and
        // making the side object there could race with the loop thread's cancel() making it.
        Seldom s = seldom;
        String given = s != null ? s.name : null;
        return given != null ? given : "Task-" + number;
    }

    /** Renames the task. */
    public void setName(String name) {
        Seldom s = seldom();
        s.name = Objects.requireNonNull(name, "name");
        if (s.watch != null) {
            s.watch.name = name;
        }
    }

    /** The context this task's body runs in (made now if the task had none of its own yet). Call on the loop's thread. */
    public Context getContext() {
        Object own = context;
        if (own instanceof Context ready) {
            return ready;
        }
        // Asked during its own step: the context that step stands in for, so both stay one.
        Context made = CurrentContext.ofThisThread().ownContextInStep(this);
        if (made == null) {
            made = Context.fromSnapshot(own);
        }
        context = made;
        return made;
    }

    /** The future this task is suspended on, or null. */
    public Future<?> waitingOn() {
        return waitingOn;
    }

    /**
     * Where the body is suspended: its frames, most recent first, down to the coroutine it runs
     * (the engine's frames below it left out); empty before its first step, once done, or while
     * it runs. asyncio's {@code Task.get_stack()}. Call on the loop's thread.
     */
    public StackTraceElement[] getStack() {
        StackTraceElement[] frames = body.suspendedStack();
        for (int i = 0; i < frames.length; i++) {
            if (frames[i].getMethodName().equals("runBody") && frames[i].getClassName().equals(Task.class.getName())) {
                return java.util.Arrays.copyOf(frames, i);
            }
        }
        return frames;
    }

    /** The body's class (or the name a body gives itself as a {@link Handle.Describable}), as "coro=" in reports. */
    public String coroutineName() {
        return origin instanceof Handle.Describable named ? named.describe() : Handle.describeClass(origin.getClass());
    }

    @Override
    protected String unretrievedMessage() {
        return "Task exception was never retrieved";
    }

    @Override
    public String toString() {
        String state = isDone() ? (isCancelled() ? "cancelled" : "finished") : "pending";
        return "<Task " + state + " name='" + getName() + "' coro=" + coroutineName()
                + CreationStack.createdAt(creationStack()) + ">";
    }

    /** What few tasks need, kept aside so every task stays small. */
    private static final class Seldom {
        /** Given at creation or by setName (else the name is built from the number). */
        String name;
        String cancelMessage;
        /** Pending cancellation requests: cancel() calls not yet balanced by uncancel(). */
        int cancelRequests;
        /** Awaits of done futures in this step so far (counted only when a cooperative budget is set). */
        int awaitsWithoutSuspending;
        /** What an observed loop's observers see for this task's steps (see stepAsHandle). */
        Handle stepView;
        /** In debug mode: reports the task if it is collected while pending. */
        PendingWatch watch;
    }

    /** Reports a task that was garbage-collected before it finished (asyncio's "destroyed but pending"). */
    static final class PendingWatch implements Runnable {
        final EventLoop loop;
        final String coroutineName; // not the body itself: it may reach the task and keep it alive
        final StackTraceElement[] creationStack;
        volatile String name;
        volatile boolean done;

        PendingWatch(EventLoop loop, String name, String coroutineName, StackTraceElement[] creationStack) {
            this.loop = loop;
            this.name = name;
            this.coroutineName = coroutineName;
            this.creationStack = creationStack;
        }

        @Override
        public void run() {
            if (done || loop.isClosed()) {
                return;
            }
            Map<String, Object> context = new LinkedHashMap<>();
            context.put("message", "Task was destroyed but it is pending!");
            context.put("task", "<Task pending name='" + name + "' coro=" + coroutineName
                    + CreationStack.createdAt(creationStack) + ">");
            if (creationStack != null) {
                context.put("source_traceback", creationStack);
            }
            try {
                loop.callSoonThreadsafe(() -> loop.callExceptionHandler(context));
            } catch (IllegalStateException closed) {
                // the loop closed meanwhile: nobody is left to tell
            }
        }
    }
}
