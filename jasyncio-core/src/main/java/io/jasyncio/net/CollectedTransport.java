package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.LoopLocal;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.channels.Channel;

/**
 * What happens when a transport is garbage-collected without being closed (the release action
 * of its {@link io.jasyncio.util.ResourceWarnings} tracker, run on the cleaner's thread), as
 * when Python collects a socket: its channel is closed, and its server, if any, counts it gone
 * so that {@link Server#waitClosed()} does not wait for it.
 *
 * <p>A transport with a reader or writer registered is reachable from its loop, as in asyncio:
 * what gets collected is one the loop no longer watches (reading paused, half-closed after EOF)
 * or one whose loop is gone. So this holds the channel, and the loop and server only weakly:
 * were they strongly reachable from here, so would every transport their selector still knows.
 */
final class CollectedTransport implements Runnable {
    /** Each loop, weakly: one reference that all its transports share (as the server's, {@link Server#weakly()}). */
    private static final LoopLocal<WeakReference<EventLoop>> WEAK_LOOP = LoopLocal.withInitial(WeakReference::new);

    private final WeakReference<EventLoop> loop;
    private final Channel channel;
    private final WeakReference<Server> server;

    CollectedTransport(EventLoop loop, Channel channel, Server server) {
        this.loop = WEAK_LOOP.get(loop);
        this.channel = channel;
        this.server = server == null ? null : server.weakly();
    }

    @Override
    public void run() {
        try {
            channel.close(); // thread-safe; a channel the poller still knows is let go at its next turn
        } catch (IOException ignored) {
            // nothing more to do with it
        }
        EventLoop l = loop.get();
        Server s = server == null ? null : server.get();
        if (l == null) {
            return;
        }
        try {
            l.callSoonThreadsafe(() -> { // also wakes the poller, which then releases the descriptor
                if (s != null) {
                    s.detachCollected();
                }
            });
        } catch (IllegalStateException loopClosed) {
            // its poller is closed too, and with it every registration
        }
    }
}
