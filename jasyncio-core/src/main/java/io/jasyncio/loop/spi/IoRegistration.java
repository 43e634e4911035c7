package io.jasyncio.loop.spi;

import io.jasyncio.loop.Handle;

import java.nio.channels.SelectableChannel;

/**
 * One watched channel. The loop keeps its reader and writer handles here (asyncio's selector key
 * data), reused at every readiness event, so readiness costs no allocation; a backend extends it
 * with what it keeps per channel (a selection key, an fd and its interest, ...) and makes it in
 * {@link Poller#newRegistration}, so its poller gets its own type back, never an object to cast.
 */
public abstract class IoRegistration {
    private final SelectableChannel channel;
    /**
     * The handle run when the channel is readable, or null: the loop's, not the backend's (the loop
     * reaches both fields through {@code io.jasyncio.loop.RegistrationHandles}).
     */
    private Handle reader;
    /** The handle run when the channel is writable, or null: the loop's, not the backend's. */
    private Handle writer;

    /** A registration of {@code channel}, with neither handle yet. */
    protected IoRegistration(SelectableChannel channel) {
        this.channel = channel;
    }

    /** The watched channel. */
    public final SelectableChannel channel() {
        return channel;
    }

    /** The interest these handles need: {@link Poller#READ} and/or {@link Poller#WRITE}. */
    public final int interest() {
        return (reader != null ? Poller.READ : 0) | (writer != null ? Poller.WRITE : 0);
    }
}
