package io.jasyncio.loop;

/**
 * A loop implementation that {@link EventLoops} can choose by name (found with
 * {@link java.util.ServiceLoader}): how the native epoll loop plugs in, as uvloop does.
 */
public interface EventLoopProvider {
    /** The name users select it by, e.g. {@code "nio"} or {@code "epoll"}. */
    String name();

    /** Whether it can run here (the right OS, native access granted, ...). */
    boolean isAvailable();

    /** Why it cannot run here (shown when it is asked for anyway), or null when it can. */
    default String unavailableReason() {
        return isAvailable() ? null : "not supported here";
    }

    /** A new loop of this implementation. */
    EventLoop create();
}
