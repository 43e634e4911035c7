package io.jasyncio.loop;

/**
 * The loop each thread runs (or acts for): what {@link EventLoops#getRunningLoop()} finds. Set by
 * a loop for its own thread while it runs, and by a task engine for a task body's thread
 * ({@link EventLoops#actAsLoopThread}), for any {@link EventLoop}.
 */
final class RunningLoop {
    private static final ThreadLocal<EventLoop> CURRENT = new ThreadLocal<>();

    private RunningLoop() {
    }

    static EventLoop get() {
        return CURRENT.get();
    }

    static void set(EventLoop loop) {
        CURRENT.set(loop);
    }

    static void clear() {
        CURRENT.remove();
    }
}
