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
    /** Stands in for the context of a task that shares its creator's bindings, during its step here; made at first use. */
    private DeferredContext deferred;

    private CurrentContext() {
    }

    /** The calling thread's holder. */
    public static CurrentContext ofThisThread() {
        return OF_THREAD.get();
    }

    /** The context now current on this thread (a task that had none of its own gets it now). */
    public Context get() {
        Context c = context;
        return c instanceof DeferredContext shared ? shared.materialize() : c;
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

    /**
     * Restores the context that {@link #enter} returned (or, when that was a task's deferred
     * context and the task got its own meanwhile, the task's own).
     */
    public void exit(Context previous) {
        context = previous instanceof DeferredContext shared && shared.made != null ? shared.made : previous;
    }

    /**
     * Begins a step of {@code task}, which has no context of its own yet, in the bindings it
     * shares with its creator ({@code snapshot}): this thread's {@code DeferredContext} stands in
     * for the task's context. Returns the context to hand back to {@link #exitShared}, or null
     * when a step is in it already (an eager start nested in one): the task needs its own now.
     */
    public Context enterShared(Object snapshot, Object task) {
        DeferredContext shared = deferred;
        if (shared == null) {
            deferred = shared = new DeferredContext(this);
        } else if (shared.owner != null) {
            return null;
        }
        if (shared.bindings != snapshot) { // most tasks share one snapshot: skip a reference store (a GC barrier)
            shared.bindings = (Object[]) snapshot;
        }
        shared.owner = task;
        return enter(shared);
    }

    /** Ends the step {@link #enterShared} began; returns the task's own context if the step made one, else null. */
    public Context exitShared(Context previous) {
        DeferredContext shared = deferred;
        Context made = shared.made;
        if (made != null) {
            shared.made = null;
        }
        shared.owner = null;
        context = previous;
        return made;
    }

    /** For {@code task} asking for its context: if its step is in this thread's deferred context, the task's own (made now if need be), else null. */
    public Context ownContextInStep(Object task) {
        DeferredContext shared = deferred;
        return shared != null && shared.owner == task ? shared.materialize() : null;
    }
}
