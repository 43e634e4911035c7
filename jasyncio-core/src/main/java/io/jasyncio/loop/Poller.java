package io.jasyncio.loop;

import java.io.IOException;
import java.nio.channels.SelectableChannel;

/**
 * The I/O multiplexer under a loop: it watches channels for readiness and is the only place
 * the loop sleeps. {@link NioPoller} wraps {@link java.nio.channels.Selector}; the native loop
 * plugs in an epoll poller behind the same five operations.
 */
public interface Poller extends AutoCloseable {
    /** Interest bit: the channel can be read (or accepted from). */
    int READ = 1;
    /** Interest bit: the channel can be written (or its connect finished). */
    int WRITE = 4;

    /**
     * Sets the interest of {@code registration}'s channel to {@code ops} ({@link #READ} and/or
     * {@link #WRITE}); 0 stops watching it. Called only on the loop thread.
     */
    void setInterest(IoRegistration registration, int ops) throws IOException;

    /** The registration already made for {@code channel}, or null. */
    IoRegistration registrationOf(SelectableChannel channel);

    /**
     * Waits up to {@code timeoutNanos} (0: do not wait; -1: until an event or a wake-up) and
     * reports each ready channel to {@code sink}. Returns the number of events reported.
     */
    int select(long timeoutNanos, IoEventSink sink) throws IOException;

    /** Makes a blocked (or the next) {@link #select} return at once. Callable from any thread. */
    void wakeup();

    /** Releases the poller's resources. */
    @Override
    void close() throws IOException;

    /**
     * A new poller over the JDK's {@link java.nio.channels.Selector}, the one the nio loop runs on:
     * for a loop built outside this module, or a backend that wraps it.
     */
    static Poller openNio() throws IOException {
        return new NioPoller();
    }

    /** Where {@link #select} reports readiness. */
    @FunctionalInterface
    interface IoEventSink {
        void onIoEvent(IoRegistration registration, int readyOps);
    }
}
