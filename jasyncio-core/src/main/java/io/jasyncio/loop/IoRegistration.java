package io.jasyncio.loop;

import java.nio.channels.SelectableChannel;

/**
 * One watched channel: its reader and writer handles (asyncio's selector key data) and
 * whatever the poller keeps for it. The handles are reused at every readiness event, so
 * readiness costs no allocation.
 */
public final class IoRegistration {
    public final SelectableChannel channel;
    public Handle reader;
    public Handle writer;
    /** The poller's own per-channel state (a SelectionKey, an fd, ...). */
    public Object pollerKey;

    public IoRegistration(SelectableChannel channel) {
        this.channel = channel;
    }

    public SelectableChannel channel() {
        return channel;
    }

    /** The interest these handles need: {@link Poller#READ} and/or {@link Poller#WRITE}. */
    public int interest() {
        return (reader != null ? Poller.READ : 0) | (writer != null ? Poller.WRITE : 0);
    }
}
