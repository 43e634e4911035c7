package io.jasyncio.context;

/**
 * Stands in, for one task step, for the context of a task that still shares its creator's
 * bindings. A task's context is a copy of its creator's; a copy that is never changed nor asked
 * for need not exist, so a task keeps only the bindings until then. Reads see those bindings; the
 * first change ({@link ContextVar#set}) or request for the context object itself
 * ({@link Context#current()}, the task's {@code getContext()}) makes the task's own
 * {@link Context}, which replaces this one as the current context for the rest of the step and is
 * the task's from then on. One per thread, reused by every such step on it.
 */
final class DeferredContext extends Context {
    private final CurrentContext holder;
    /** The task whose step this stands in for, or null between steps. */
    Object owner;
    /** The owner's own context, once made during this step. */
    Context made;

    DeferredContext(CurrentContext holder) {
        super(NO_BINDINGS);
        this.holder = holder;
    }

    /** The owner's own context, made now if it was not yet; it becomes current if this one was. */
    Context materialize() {
        Context m = made;
        if (m == null) {
            made = m = new Context(bindings);
        }
        if (holder.context == this) {
            holder.context = m;
        }
        return m;
    }
}
