package io.jasyncio.loop.spi;

import java.nio.channels.SelectableChannel;

/**
 * One watched channel. The loop keeps its reader and writer callbacks here (asyncio's selector key
 * data, the JDK's key attachment), reused at every readiness event, so readiness costs no
 * allocation; a backend extends it with what it keeps per channel (a selection key, an fd and its
 * interest, ...) and makes it in {@link Poller#newRegistration}, so its poller gets its own type
 * back, never an object to cast.
 */
public abstract class IoRegistration {
    private final SelectableChannel channel;
    private ReadyCallback reader;
    private ReadyCallback writer;

    /** A registration of {@code channel}, with neither callback yet. */
    protected IoRegistration(SelectableChannel channel) {
        this.channel = channel;
    }

    /** The watched channel. */
    public final SelectableChannel channel() {
        return channel;
    }

    /** The callback the loop queues when the channel is readable, or null. */
    public final ReadyCallback reader() {
        return reader;
    }

    /** The callback the loop queues when the channel is writable, or null. */
    public final ReadyCallback writer() {
        return writer;
    }

    /**
     * Sets the callback for readability (null: none): the loop's call when a reader is added or
     * removed, never a backend's (a backend reads {@link #interest()}).
     */
    public final void setReader(ReadyCallback reader) {
        this.reader = reader;
    }

    /** Sets the callback for writability (null: none): the loop's call, never a backend's. */
    public final void setWriter(ReadyCallback writer) {
        this.writer = writer;
    }

    /** The interest these callbacks need: {@link Poller#READ} and/or {@link Poller#WRITE}. */
    public final int interest() {
        return (reader != null ? Poller.READ : 0) | (writer != null ? Poller.WRITE : 0);
    }
}
