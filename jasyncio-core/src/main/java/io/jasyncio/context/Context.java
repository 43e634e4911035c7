package io.jasyncio.context;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * A set of {@link ContextVar} bindings, as Python's {@code contextvars.Context}.
 *
 * <p>Every thread has a current context. A task runs in its own context (a copy taken when the
 * task was created; made only once the task changes it or asks for it, until then the task shares
 * its creator's bindings: see {@code DeferredContext}), and every callback runs in a copy taken
 * when it was scheduled. Setting a
 * variable changes only the current context; copies are O(1) because the bindings themselves
 * are immutable and shared: {@code set} replaces the array, it never writes into it.
 */
public sealed class Context permits DeferredContext {
    static final Object[] NO_BINDINGS = new Object[0];

    /** Pairs: var0, value0, var1, value1, ... Never mutated once published. */
    Object[] bindings;

    Context(Object[] bindings) {
        this.bindings = bindings;
    }

    /** A context with no variable set: every variable reads its default. */
    public static Context empty() {
        return new Context(NO_BINDINGS);
    }

    /** A copy of the calling thread's current context ({@code contextvars.copy_context()}). */
    public static Context copyCurrent() {
        return new Context(CurrentContext.ofThisThread().context.bindings);
    }

    /** The calling thread's current context itself (not a copy). */
    public static Context current() {
        return CurrentContext.ofThisThread().get();
    }

    /**
     * The current bindings as an opaque immutable snapshot: what a scheduled callback keeps so
     * that it can later run "in a copy of the context taken now" without allocating a copy.
     */
    public static Object snapshot() {
        return CurrentContext.ofThisThread().context.bindings;
    }

    /** A new context holding the bindings of a {@link #snapshot()}. */
    public static Context fromSnapshot(Object snapshot) {
        return new Context((Object[]) snapshot);
    }

    /** A copy of this context: later changes to either are not seen by the other. */
    public Context copy() {
        return new Context(bindings);
    }

    /** Runs {@code body} with this context as the current one; changes it makes stay here. */
    public void run(Runnable body) {
        CurrentContext current = CurrentContext.ofThisThread();
        Context previous = current.enter(this);
        try {
            body.run();
        } finally {
            current.exit(previous);
        }
    }

    /** Like {@link #run(Runnable)}, returning the body's result. */
    public <T> T call(Callable<T> body) throws Exception {
        CurrentContext current = CurrentContext.ofThisThread();
        Context previous = current.enter(this);
        try {
            return body.call();
        } finally {
            current.exit(previous);
        }
    }

    /** Whether {@code var} has a value in this context. */
    public boolean contains(ContextVar<?> var) {
        return indexOf(var) >= 0;
    }

    /** Number of variables set in this context. */
    public int size() {
        return bindings.length / 2;
    }

    int indexOf(ContextVar<?> var) {
        Object[] b = bindings;
        for (int i = 0; i < b.length; i += 2) {
            if (b[i] == var) {
                return i;
            }
        }
        return -1;
    }

    Object valueAt(int index) {
        return bindings[index + 1];
    }

    void bind(ContextVar<?> var, Object value) {
        Object[] b = bindings;
        int i = indexOf(var);
        Object[] next;
        if (i >= 0) {
            next = b.clone();
            next[i + 1] = value;
        } else {
            next = Arrays.copyOf(b, b.length + 2);
            next[b.length] = var;
            next[b.length + 1] = value;
        }
        bindings = next;
    }

    void unbind(ContextVar<?> var) {
        Object[] b = bindings;
        int i = indexOf(var);
        if (i < 0) {
            return;
        }
        Object[] next = new Object[b.length - 2];
        System.arraycopy(b, 0, next, 0, i);
        System.arraycopy(b, i + 2, next, i, b.length - i - 2);
        bindings = next;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Context{");
        for (int i = 0; i < bindings.length; i += 2) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(((ContextVar<?>) bindings[i]).name()).append('=').append(Objects.toString(bindings[i + 1]));
        }
        return sb.append('}').toString();
    }
}
