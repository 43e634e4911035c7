package io.jasyncio.sync;

import io.jasyncio.loop.DebugThreadCheck;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;

/**
 * Binds a primitive to the first loop that makes it wait (asyncio's {@code _LoopBoundMixin}):
 * primitives can be created anywhere, even before a loop runs, but their waiters' futures all
 * belong to one loop, and using the primitive from another loop fails loudly.
 */
final class LoopBinding {
    private EventLoop loop;
    /** In debug mode, the loop it was made or last used on while unbound: whose thread the next call must be on. */
    private EventLoop usedOn;

    LoopBinding() {
        if (DebugThreadCheck.active()) {
            usedOn = EventLoops.runningLoopOrNull(); // made in a loop's turn: that loop's, until bound
        }
    }

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

    /**
     * In debug mode, a call that changes the primitive must come from its loop's turn (asyncio's
     * debug-mode thread check): the loop it is bound to, else the loop it was last used from.
     * Free when no loop runs in debug mode.
     */
    void checkThread(Object owner, String operation) {
        if (!DebugThreadCheck.active()) {
            return;
        }
        EventLoop home = loop;
        if (home == null) {
            EventLoop running = EventLoops.runningLoopOrNull();
            if (running != null) {
                usedOn = running;
                return;
            }
            home = usedOn;
        }
        DebugThreadCheck.check(home, owner.getClass().getSimpleName() + "." + operation);
    }
}
