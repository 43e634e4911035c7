package io.jasyncio.task;

import java.util.List;
import java.util.Objects;

/**
 * Several failures raised together, as Python's {@code ExceptionGroup}: what a {@link TaskGroup}
 * raises when its children (or its body) failed. {@link #exceptions()} lists them in the order
 * they happened; each is also attached as a suppressed exception, so stack traces show them all.
 *
 * <p>{@link #message()} is the bare message ("unhandled errors in a TaskGroup");
 * {@link #getMessage()} adds the count as Python's {@code str()} does
 * ("unhandled errors in a TaskGroup (2 sub-exceptions)").
 */
public class ExceptionGroup extends RuntimeException {
    /** The group's own message, without the count. */
    private final String message;
    /** The exceptions, in the order they were raised. */
    private final List<Throwable> exceptions;

    /** A group of {@code exceptions} (at least one) under {@code message}. */
    public ExceptionGroup(String message, List<? extends Throwable> exceptions) {
        super(withCount(message, exceptions), null, true, true);
        if (exceptions.isEmpty()) {
            throw new IllegalArgumentException("an exception group needs at least one exception");
        }
        this.message = Objects.requireNonNull(message, "message");
        this.exceptions = List.copyOf(exceptions);
        for (Throwable e : this.exceptions) {
            addSuppressed(e);
        }
    }

    private static String withCount(String message, List<? extends Throwable> exceptions) {
        int n = exceptions.size();
        return message + " (" + n + " sub-exception" + (n == 1 ? "" : "s") + ")";
    }

    /** The message without the count. */
    public String message() {
        return message;
    }

    /** The failures, in the order they happened. */
    public List<Throwable> exceptions() {
        return exceptions;
    }
}
