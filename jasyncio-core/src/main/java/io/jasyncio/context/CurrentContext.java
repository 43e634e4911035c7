package io.jasyncio.context;

/**
 * The current {@link Context} of one thread.
 *
 * <p>The event loop looks this object up once per run and then switches contexts with two field
 * writes per callback, instead of a {@link ThreadLocal} lookup each time.
 */
public final class CurrentContext {
    private static final ThreadLocal<CurrentContext> OF_THREAD = ThreadLocal.withInitial(CurrentContext::new);

    Context context = Context.empty();

    private CurrentContext() {
    }

    /** The calling thread's holder. */
    public static CurrentContext ofThisThread() {
        return OF_THREAD.get();
    }

    /** The context now current on this thread. */
    public Context get() {
        return context;
    }

    /** The current bindings as an opaque immutable snapshot (see {@link Context#snapshot()}). */
    public Object snapshot() {
        return context.bindings;
    }

    /** Makes {@code next} current; returns the context to hand back to {@link #exit}. */
    public Context enter(Context next) {
        Context previous = context;
        context = next;
        return previous;
    }

    /** Makes a snapshot current (in {@code scratch}, reused), returning the previous context. */
    public Context enterSnapshot(Object snapshot, Context scratch) {
        if (scratch.bindings != snapshot) { // most callbacks share one snapshot: skip a reference store (a GC barrier)
            scratch.bindings = (Object[]) snapshot;
        }
        return enter(scratch);
    }

    /** Restores the context that {@link #enter} returned. */
    public void exit(Context previous) {
        context = previous;
    }
}
