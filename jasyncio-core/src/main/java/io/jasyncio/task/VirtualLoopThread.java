package io.jasyncio.task;

import io.jasyncio.context.Context;
import io.jasyncio.util.Throwables;

import java.util.function.Supplier;

/**
 * On the portable engine, {@link Runner} runs its loop on a virtual thread, so that every hand-off
 * between the loop and a task body is one virtual thread parking and another one, usually queued
 * on the same carrier, going on: no OS thread is woken. A loop on a platform thread pays two OS
 * wake-ups per hand-off instead (unparking a virtual thread has to wake a carrier; unparking the
 * platform thread has to wake it), about 10x the cost (docs/BENCHMARKS.md, "Task engines").
 *
 * <p>Strict alternation is unchanged: the loop thread parks while a body runs and a body parks
 * while the loop runs, so loop callbacks and task code still never overlap. The caller waits
 * (joins) meanwhile and gets the result or the very exception the run ended with.
 *
 * <p>Not in debug mode: there the creation stacks of what the loop's callbacks create should go
 * on into the caller's frames, which a thread of its own does not have.
 *
 * <p>Only for the nio loop: the JDK's selector parks a virtual thread that waits in
 * {@code select}, where a native backend (epoll, io_uring, through the FFM API) would hold its
 * carrier for the whole wait. Off with {@code -Djasyncio.threads.virtualLoop=false}; never on the
 * continuation engine, whose bodies run on the loop's own thread anyway.
 */
final class VirtualLoopThread {
    static final String PROPERTY = "jasyncio.threads.virtualLoop";

    private VirtualLoopThread() {
    }

    /**
     * Whether a Runner on a loop of the implementation named {@code loopName} should drive it
     * from a virtual thread (when called from a platform thread).
     */
    static boolean wanted(String loopName) {
        return TaskEngine.CHOSEN instanceof ThreadEngine
                && loopName.equals("nio")
                && !"false".equals(System.getProperty(PROPERTY));
    }

    /**
     * Runs {@code work} on a new virtual thread named as the caller, in the caller's current
     * context (what the loop's own callbacks run in, as on the caller's thread), waits for it, and
     * returns its result or throws what it threw. An interrupt of the waiting caller is passed on.
     */
    static <T> T call(Supplier<T> work) {
        Thread caller = Thread.currentThread();
        Context callerContext = Context.current(); // entered there while the caller waits: one thread at a time
        Object[] outcome = new Object[2]; // result, or failure in [1]; published by join()
        Thread loopThread = Thread.ofVirtual().name(caller.getName()).start(() -> callerContext.run(() -> {
            try {
                outcome[0] = work.get();
            } catch (Throwable t) {
                outcome[1] = t;
            }
        }));
        boolean interrupted = false;
        while (true) {
            try {
                loopThread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
                loopThread.interrupt();
            }
        }
        if (interrupted) {
            caller.interrupt();
        }
        if (outcome[1] != null) {
            throw Throwables.sneakyThrow((Throwable) outcome[1]);
        }
        @SuppressWarnings("unchecked")
        T result = (T) outcome[0];
        return result;
    }
}
