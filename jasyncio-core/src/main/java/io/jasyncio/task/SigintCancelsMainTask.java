package io.jasyncio.task;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Signal;
import io.jasyncio.loop.SignalHandlers;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * asyncio 3.11's Runner behaviour on Ctrl-C: the first SIGINT cancels the main task (so its
 * {@code finally} blocks and cleanup run, and {@link Runner#run} throws {@link KeyboardInterrupt});
 * a later one gives SIGINT back to the JVM and raises it again, which ends the process at once
 * (exit status 130) even if the loop is stuck. Installed only on the JVM's main thread and over
 * the JVM's own SIGINT handling (not over a loop's or the application's), as asyncio installs it
 * only over the default handler.
 */
final class SigintCancelsMainTask implements AutoCloseable {
    private final AtomicInteger interrupts = new AtomicInteger();
    private final Object handle;

    private SigintCancelsMainTask(EventLoop loop, Task<?> main) {
        this.handle = SignalHandlers.interceptIfFree(loop, Signal.SIGINT, () -> {
            if (interrupts.incrementAndGet() == 1) {
                loop.callSoonThreadsafe(() -> {
                    if (!main.isDone()) {
                        main.cancel();
                    }
                });
            } else {
                SignalHandlers.raiseToJvm(Signal.SIGINT);
            }
        });
    }

    /**
     * Installs it for {@code main}; null when SIGINT is taken. The caller checks first that
     * {@link Runner#run} was called on the JVM's main thread (it may run the loop on another).
     */
    static SigintCancelsMainTask installFor(EventLoop loop, Task<?> main) {
        SigintCancelsMainTask sigint = new SigintCancelsMainTask(loop, main);
        return sigint.handle == null ? null : sigint;
    }

    /**
     * Java has no {@code threading.main_thread()}: the launcher's thread is the platform thread
     * named "main" (a thread merely renamed so would count too).
     */
    static boolean isJvmMainThread() {
        Thread t = Thread.currentThread();
        return !t.isVirtual() && t.getName().equals("main");
    }

    /** Whether a SIGINT arrived (then a cancelled main task means KeyboardInterrupt). */
    boolean interrupted() {
        return interrupts.get() > 0;
    }

    @Override
    public void close() {
        SignalHandlers.removeIntercept(Signal.SIGINT, handle);
    }
}
