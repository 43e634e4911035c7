package io.jasyncio.task;

import io.jasyncio.context.CurrentContext;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.LoopLocal;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * One task's body on a virtual thread of its own, run strictly in turn with the thread that
 * resumes it: {@link #resume()} hands the turn to the body and parks until the body hands it
 * back ({@link #suspend()} or the end of the body). {@code turn} is volatile, so every hand-off
 * happens-before what the other side does next, and at any moment exactly one side runs: task
 * code stays single-threaded, as on the continuation engine.
 *
 * <p>The body thread acts for the task's loop while it runs: it finds the loop as its running
 * loop, passes the loop's own-thread checks, bears the loop thread's name, has the task's
 * {@code Context} as its current context (so {@code ContextVar} changes land in the task's
 * context), and {@link #threadRunning} tells the watchdog which thread's stack holds the loop.
 *
 * <p>Each body thread is started by an executor that runs no other live body: the JDK tracks plain
 * virtual threads in a root set for thread dumps, which would keep a task suspended forever
 * (awaiting a future nobody will complete, or left when its loop closes) alive for the life of the
 * JVM, and an executor holds its live threads. Started this way, a suspended body thread is
 * reachable only through its task, so such a task is garbage-collected as on the continuation
 * engine (and, in debug mode, reported as "destroyed but it is pending"). Making an executor
 * registers it in the JDK's global registry of thread containers, the largest part of a body's
 * cost over its floor (docs/BENCHMARKS.md, "The portable engine against its floor"), so the
 * executor of a finished body, which then holds no thread but its exiting one, is kept by the loop
 * for the next body (up to {@link Mounted#SPARE_EXECUTORS}), or else shut down, which takes it out
 * of the registry as its thread exits. A JVM started with {@code -Djdk.trackAllThreads=false}
 * only counts plain virtual threads: there each body is a plain virtual thread, with no executor.
 */
final class ThreadBody implements TaskBody {
    private static final LoopLocal<Mounted> MOUNTED = LoopLocal.withInitial(loop -> new Mounted());
    /**
     * Whether the JDK keeps every plain virtual thread in its root set: its own reading of
     * {@code jdk.trackAllThreads}, which it takes once at start-up (so the flag belongs on the
     * command line, not in a {@code System.setProperty} call).
     */
    static final boolean JDK_TRACKS_VIRTUAL_THREADS = tracksAllThreads(System.getProperty("jdk.trackAllThreads"));
    private static final boolean CALLER = false;
    private static final boolean BODY = true;

    private final Task<?> task;
    private final Runnable code;
    private final Mounted mounted;
    /** Who resumed the body last: written before the hand-off to the body, which publishes it. */
    private Thread resumer;
    /** The body's thread, once started: written by the body before its first hand-off back. */
    private Thread bodyThread;
    /** What started the body's thread: an executor that runs nothing else until the body finishes, or a plain starter. */
    private Executor executor;
    /** The name of the threads {@link #executor} makes. */
    private String executorName;
    private boolean finished;
    private volatile boolean turn = CALLER;

    ThreadBody(Task<?> task, Runnable code) {
        this.task = task;
        this.code = code;
        this.mounted = MOUNTED.get(task.getLoop());
    }

    /** The JDK's parse of {@code jdk.trackAllThreads} (jdk.internal.vm.ThreadContainers). */
    static boolean tracksAllThreads(String value) {
        return value == null || value.isEmpty() || Boolean.parseBoolean(value);
    }

    /** See {@link Tasks#threadRunning}: the loop-local lookup happens now, the reads later on any thread. */
    static Supplier<Thread> threadRunning(EventLoop loop) {
        Mounted mounted = MOUNTED.get(loop);
        return () -> {
            Thread body = mounted.thread;
            return body != null ? body : loop.thread();
        };
    }

    @Override
    public Task<?> task() {
        return task;
    }

    @Override
    public void run() {
        if (!finished) { // a finished body has no thread left: resuming would start it again
            resume();
        }
    }

    @Override
    public boolean resume() {
        resumer = Thread.currentThread();
        Thread before = mounted.thread; // an eager start from inside another body nests
        Thread body = bodyThread;
        turn = BODY;
        if (body == null) {
            try {
                executorName = resumer.getName();
                executor = mounted.starterNamedAs(executorName);
                executor.execute(this::runOnBodyThread);
            } catch (RuntimeException | Error noThread) {
                turn = CALLER; // nothing runs the body: do not wait for it (the step fails instead)
                throw noThread;
            }
        } else {
            LockSupport.unpark(body);
        }
        awaitTurn(CALLER);
        mounted.thread = before;
        if (finished) {
            bodyThread = null; // a finished task keeps no thread (nor, through it, the loop's)
            resumer = null;
            mounted.giveBack(executor, executorName); // only its exiting thread is left in it
            executor = null;
        }
        return finished;
    }

    @Override
    public void suspend() {
        handBack();
        awaitTurn(BODY);
        mounted.thread = bodyThread;
    }

    private void runOnBodyThread() {
        bodyThread = Thread.currentThread();
        mounted.thread = bodyThread;
        ThreadEngine.TASK_OF_THREAD.set(task);
        EventLoops.actAsLoopThread(task.getLoop());
        CurrentContext.ofThisThread().enter(task.getContext());
        try {
            code.run(); // catches everything the body throws; it is the task's outcome
        } finally {
            finished = true;
            handBack();
        }
    }

    /** On the body thread: gives the turn back to the thread that resumed the body, and wakes it. */
    private void handBack() {
        Thread r = resumer; // read before the turn flips: the resumer may resume us again at once
        turn = CALLER;
        LockSupport.unpark(r);
    }

    /** Parks until the turn is {@code mine}; an interrupt neither ends the wait nor is lost. */
    private void awaitTurn(boolean mine) {
        boolean interrupted = false;
        while (turn != mine) {
            LockSupport.park(this);
            // isInterrupted is a field read; clearing the flag (Thread.interrupted) takes a lock
            // on a virtual thread, which every hand-off would pay
            if (Thread.currentThread().isInterrupted() && Thread.interrupted()) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public StackTraceElement[] suspendedStack() {
        Thread body = bodyThread;
        return body == null || finished ? new StackTraceElement[0] : body.getStackTrace();
    }

    /** Which body thread a loop's code runs on now (read by the watchdog's thread), and the executors that start them. */
    private static final class Mounted {
        /** How many executors of finished bodies a loop keeps for the next bodies (~350 B each). */
        static final int SPARE_EXECUTORS = 1024;

        volatile Thread thread;
        /** Executors whose body finished, making threads named {@link #spareName}; only the thread holding the loop's turn uses them. */
        private final ExecutorService[] spare = new ExecutorService[SPARE_EXECUTORS];
        private int spareCount;
        private String spareName;
        /** Makes virtual threads named {@link #spareName}. */
        private ThreadFactory factory;
        /** Starts plain virtual threads named {@link #spareName}; null while the JDK tracks them. */
        private Executor plain;

        /**
         * What starts a body's thread: an executor running no live body, or, when the JDK does not
         * track plain virtual threads, a plain starter. Its threads are named as the thread that
         * steps them (the loop's), which they act for: logs read the same on both engines.
         */
        Executor starterNamedAs(String name) {
            if (!name.equals(spareName)) {
                while (spareCount > 0) {
                    spare[--spareCount].shutdown();
                    spare[spareCount] = null;
                }
                spareName = name;
                ThreadFactory f = factory = Thread.ofVirtual().name(name).factory(); // shareable: one per name
                plain = JDK_TRACKS_VIRTUAL_THREADS ? null : r -> f.newThread(r).start();
            }
            if (plain != null) {
                return plain;
            }
            if (spareCount > 0) {
                ExecutorService e = spare[--spareCount];
                spare[spareCount] = null;
                return e;
            }
            return Executors.newThreadPerTaskExecutor(factory);
        }

        /** Takes back the starter of a body that has finished, whose threads it names {@code name}. */
        void giveBack(Executor starter, String name) {
            if (!(starter instanceof ExecutorService e)) {
                return;
            }
            if (spareCount < SPARE_EXECUTORS && name.equals(spareName)) {
                spare[spareCount++] = e;
            } else {
                e.shutdown(); // out of the JDK's registry once its thread exits, not when a GC clears it
            }
        }
    }
}
