package io.jasyncio.loop;

/**
 * Watches the phases of each iteration. The loop calls it only when one is installed, so an
 * unobserved loop pays one null check per phase. Debug mode, stats, the watchdog and the lab's
 * iteration trace are observers; all calls come on the loop thread.
 */
public interface LoopObserver {
    /** Before the poller is asked; {@code timeoutNanos} is -1 for "block until woken". */
    default void beforeSelect(long timeoutNanos, int readyCount, int timerCount) {
    }

    /** After the poller returned {@code ioEvents} readiness events. */
    default void afterSelect(int ioEvents, long selectNanos) {
    }

    /** Due timers moved to the ready queue, and the snapshot about to be drained. */
    default void beforeDrain(int timersMoved, int ntodo) {
    }

    /** A handle is about to run. */
    default void handleStarting(Handle handle, long startNanos) {
    }

    /** A handle returned (or threw) after running for {@code nanos}. */
    default void handleFinished(Handle handle, long nanos) {
    }

    /**
     * A task's step starts eagerly inside the running handle (asyncio 3.12's eager task: its first
     * step runs in the callback that created it). Told for the outermost such step only: one
     * started inside another eager step is part of that step's time.
     */
    default void eagerStepStarting(Handle step, long startNanos) {
    }

    /** The eager step told by {@link #eagerStepStarting} returned after {@code nanos}, before its handle finished. */
    default void eagerStepFinished(Handle step, long nanos) {
    }

    /** The iteration is over. */
    default void iterationFinished() {
    }

    /** {@code timer} was just scheduled ({@code callLater}, {@code callAt}), on the scheduling code's stack. */
    default void timerScheduled(TimerHandle timer) {
    }
}
