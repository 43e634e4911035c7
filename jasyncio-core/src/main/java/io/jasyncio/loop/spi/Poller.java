package io.jasyncio.loop.spi;

import java.io.IOException;
import java.nio.channels.SelectableChannel;

/**
 * The I/O multiplexer under a loop: it watches channels for readiness and is the only place
 * the loop sleeps. {@link NioPoller} wraps {@link java.nio.channels.Selector}; the native
 * backends plug in epoll and io_uring pollers behind the same operations.
 *
 * @param <R> the backend's own registration: what it keeps per channel, made by
 *            {@link #newRegistration} and handed back to it by every other call
 */
public interface Poller<R extends IoRegistration> extends AutoCloseable {
    /** Interest bit: the channel can be read (or accepted from). */
    int READ = 1;
    /** Interest bit: the channel can be written (or its connect finished). */
    int WRITE = 4;

    /**
     * Sets the interest of {@code registration}'s channel to {@code ops} ({@link #READ} and/or
     * {@link #WRITE}); 0 stops watching it. Called only on the loop thread.
     */
    void setInterest(R registration, int ops) throws IOException;

    /**
     * The registration watching {@code channel} now (its interest not 0), or null. One whose
     * interest went to 0 may be forgotten: the loop then makes a new one.
     */
    R registrationOf(SelectableChannel channel);

    /** A new registration of {@code channel}, not watched until {@link #setInterest} gives it an interest. */
    R newRegistration(SelectableChannel channel);

    /**
     * Waits up to {@code timeoutNanos} (0: do not wait; -1: until an event or a wake-up) and
     * reports each ready channel to {@code sink}. Returns the number of events reported.
     */
    int select(long timeoutNanos, IoEventSink<? super R> sink) throws IOException;

    /** Makes a blocked (or the next) {@link #select} return at once. Callable from any thread. */
    void wakeup();

    /** Releases the poller's resources. */
    @Override
    void close() throws IOException;

    /**
     * A new poller over the JDK's {@link java.nio.channels.Selector}, the one the nio loop runs on:
     * for a loop built outside this module, or a backend that wraps it.
     */
    static Poller<?> openNio() throws IOException {
        return new NioPoller();
    }

    /** Where {@link #select} reports readiness. */
    @FunctionalInterface
    interface IoEventSink<R extends IoRegistration> {
        /** {@code registration}'s channel is ready for {@code readyOps} ({@link #READ}, {@link #WRITE}). */
        void onIoEvent(R registration, int readyOps);
    }
}
