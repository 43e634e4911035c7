package io.jasyncio.context;

import java.util.NoSuchElementException;

/**
 * A context variable, as Python's {@code contextvars.ContextVar}: a value that follows the
 * logical flow of control. Each task sees the values of the context it was created in, and its
 * own changes never leak back to its creator.
 */
public final class ContextVar<T> {
    private static final Object NO_DEFAULT = new Object();

    private final String name;
    private final Object defaultValue;

    private ContextVar(String name, Object defaultValue) {
        this.name = name;
        this.defaultValue = defaultValue;
    }

    /** A variable with no default: {@link #get()} throws until it is set. */
    public static <T> ContextVar<T> of(String name) {
        return new ContextVar<>(name, NO_DEFAULT);
    }

    /** A variable whose unset value reads as {@code defaultValue}. */
    public static <T> ContextVar<T> withDefault(String name, T defaultValue) {
        return new ContextVar<>(name, defaultValue);
    }

    /** The name given at creation (what {@code toString()} and reports show). */
    public String name() {
        return name;
    }

    /** The value in the current context, else the default; throws when there is neither. */
    @SuppressWarnings("unchecked")
    public T get() {
        Context c = CurrentContext.ofThisThread().context;
        int i = c.indexOf(this);
        if (i >= 0) {
            return (T) c.valueAt(i);
        }
        if (defaultValue == NO_DEFAULT) {
            throw new NoSuchElementException("context variable '" + name + "' is not set");
        }
        return (T) defaultValue;
    }

    /** The value in the current context, else {@code fallback}. */
    @SuppressWarnings("unchecked")
    public T get(T fallback) {
        Context c = CurrentContext.ofThisThread().context;
        int i = c.indexOf(this);
        return i >= 0 ? (T) c.valueAt(i) : fallback;
    }

    /** Sets the value in the current context; the token restores the previous state. */
    public Token<T> set(T value) {
        Context c = CurrentContext.ofThisThread().context;
        if (c instanceof DeferredContext shared) {
            c = shared.materialize(); // a task's first change: it gets its own context now
        }
        int i = c.indexOf(this);
        Object old = i >= 0 ? c.valueAt(i) : Token.MISSING;
        c.bind(this, value);
        return new Token<>(this, c, old);
    }

    /** Restores the value this variable had before the {@link #set} that returned {@code token}. */
    public void reset(Token<T> token) {
        if (token.var != this) {
            throw new IllegalArgumentException("token was created by a different ContextVar");
        }
        Context c = CurrentContext.ofThisThread().context;
        if (token.context != c) {
            throw new IllegalArgumentException("token was created in a different Context");
        }
        token.use();
        if (token.oldValue == Token.MISSING) {
            c.unbind(this);
        } else {
            c.bind(this, token.oldValue);
        }
    }

    @Override
    public String toString() {
        return "ContextVar{" + name + "}";
    }

    /** What {@link #set} returns: enough to undo it once. */
    public static final class Token<T> {
        static final Object MISSING = new Object();
        final ContextVar<T> var;
        final Context context;
        final Object oldValue;
        private boolean used;

        Token(ContextVar<T> var, Context context, Object oldValue) {
            this.var = var;
            this.context = context;
            this.oldValue = oldValue;
        }

        void use() {
            if (used) {
                throw new IllegalStateException("token has already been used once");
            }
            used = true;
        }
    }
}
