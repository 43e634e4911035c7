package io.jasyncio.loop.spi;

/**
 * What a loop runs over, made for it by its {@link EventLoopProvider}: the poller that is the
 * loop's one wait, and whatever else the backend offers the layers above the loop, found by type
 * ({@link #feature}): a completion backend's {@code Proactor}, say. The loop itself is the
 * library's one loop class, the same for every backend.
 */
public interface LoopBackend {
    /** The poller the loop waits in; the loop closes it when it closes. */
    Poller<?> poller();

    /**
     * What this backend offers as a {@code type}, or null. By default: the backend itself or its
     * poller when either is one (how a test reaches a native poller's counters), else nothing.
     */
    default <T> T feature(Class<T> type) {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        Poller<?> poller = poller();
        return type.isInstance(poller) ? type.cast(poller) : null;
    }

    /** A backend that is {@code poller} and nothing else: readiness for everything. */
    static LoopBackend of(Poller<?> poller) {
        java.util.Objects.requireNonNull(poller, "poller");
        return () -> poller;
    }
}
