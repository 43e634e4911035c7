package io.jasyncio.sync;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;

/**
 * Binds a primitive to the first loop that makes it wait (asyncio's {@code _LoopBoundMixin}):
 * primitives can be created anywhere, even before a loop runs, but their waiters' futures all
 * belong to one loop, and using the primitive from another loop fails loudly.
 */
final class LoopBinding {
    private EventLoop loop;

    /** The running loop, which must be the one this primitive is bound to (binding it on first use). */
    EventLoop loop(Object owner) {
        EventLoop running = EventLoops.getRunningLoop();
        if (loop == null) {
            loop = running;
        } else if (loop != running) {
            throw new IllegalStateException(owner + " is bound to a different event loop");
        }
        return loop;
    }
}
