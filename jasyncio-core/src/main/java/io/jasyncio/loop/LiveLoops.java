package io.jasyncio.loop;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The JVM's loops that are not closed, held weakly (a loop nobody references and nobody closed
 * leaves when it is collected), each with the number of its creation: what {@code ps},
 * {@code pstree} and the management beans list. Loops are made rarely: a lock is fine.
 */
final class LiveLoops {
    private static final List<Entry> LOOPS = new ArrayList<>();
    private static final List<EventLoops.CreationListener> LISTENERS = new CopyOnWriteArrayList<>();
    private static int nextId;

    private record Entry(int id, WeakReference<CoreEventLoop> loop) {
    }

    private LiveLoops() {
    }

    static void add(CoreEventLoop loop) {
        synchronized (LOOPS) {
            LOOPS.removeIf(e -> e.loop.refersTo(null));
            LOOPS.add(new Entry(nextId++, new WeakReference<>(loop)));
        }
        for (EventLoops.CreationListener l : LISTENERS) {
            l.loopCreated(loop);
        }
    }

    static void remove(CoreEventLoop loop) {
        synchronized (LOOPS) {
            LOOPS.removeIf(e -> e.loop.refersTo(loop) || e.loop.refersTo(null));
        }
        for (EventLoops.CreationListener l : LISTENERS) {
            l.loopClosed(loop);
        }
    }

    static List<EventLoops.LiveLoop> snapshot() {
        List<EventLoops.LiveLoop> live = new ArrayList<>();
        synchronized (LOOPS) {
            for (Entry e : LOOPS) {
                CoreEventLoop loop = e.loop.get();
                if (loop != null && !loop.isClosed()) {
                    live.add(new EventLoops.LiveLoop(e.id, loop));
                }
            }
        }
        return live;
    }

    static List<EventLoops.LiveLoop> addListener(EventLoops.CreationListener listener) {
        synchronized (LOOPS) { // no loop is made or closed between the listener joining and the list
            LISTENERS.add(listener);
            return snapshot();
        }
    }
}
