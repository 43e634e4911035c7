package io.jasyncio.loop.spi;

import java.io.IOException;

/**
 * A loop backend that {@code io.jasyncio.loop.EventLoops} can choose by name (found with
 * {@link java.util.ServiceLoader}): nio's, and the native epoll and io_uring ones, plug in this
 * way, as uvloop does. Every loop is the library's one loop class over the backend its provider
 * opens.
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

    /**
     * The backend of a new loop, {@code loop}: called once, from the loop's constructor, so
     * {@code loop} may be kept (to queue callbacks on it later) but not called yet.
     */
    LoopBackend openBackend(LoopContract loop) throws IOException;
}
