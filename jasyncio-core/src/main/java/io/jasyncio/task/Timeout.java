package io.jasyncio.task;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Handle;
import io.jasyncio.util.Throwables;

/**
 * A deadline around a body, as asyncio's {@code Timeout} ({@code asyncio.timeout()} /
 * {@code timeout_at()}): when the deadline passes, the running task is cancelled, and the
 * {@link CancelledError} that leaves the body becomes a {@link TimeoutException}.
 *
 * <pre>{@code
 * Timeout t = Timeout.after(0.5);
 * String page = t.run(() -> fetch(url));     // TimeoutException if it takes longer
 * boolean late = t.expired();
 * }</pre>
 *
 * <p>The body is a lambda rather than a try-with-resources block because the scope must see the
 * exception its body threw. Inside the body, {@link #reschedule}, {@link #when()} and
 * {@link #expired()} work on the same object (capture it, or use the {@link Body} overload that
 * receives it).
 *
 * <p>Only the cancellation this timeout caused is converted, as in asyncio 3.11+: on entry the
 * scope records the task's {@code cancelling()} count; when the deadline fires it cancels the task
 * (one more request); on exit it calls {@code uncancel()} and converts only if the count is back
 * to the recorded one. A cancellation from outside, or from an outer timeout, travels on as a
 * {@code CancelledError}, which is how nested timeouts each convert only their own.
 */
public final class Timeout {
    private enum State { CREATED, ENTERED, EXPIRING, EXPIRED, EXITED }

    /** A body that receives its timeout, to read or move the deadline. */
    @FunctionalInterface
    public interface Body<T> {
        T run(Timeout timeout) throws Exception;
    }

    private State state = State.CREATED;
    private Double when;
    private Task<?> task;
    private int cancellingOnEntry;
    private Handle handle;

    private Timeout(Double when) {
        this.when = when;
    }

    /** A timeout {@code delay} seconds after now on the running loop (asyncio's {@code timeout(delay)}). */
    public static Timeout after(double delay) {
        return new Timeout(EventLoops.getRunningLoop().time() + delay);
    }

    /** A timeout at the loop time {@code when} (asyncio's {@code timeout_at(when)}). */
    public static Timeout at(double when) {
        return new Timeout(when);
    }

    /** A timeout with no deadline yet (asyncio's {@code timeout(None)}); {@link #reschedule} may add one. */
    public static Timeout never() {
        return new Timeout(null);
    }

    /** The deadline in loop time, or null when there is none. */
    public Double when() {
        return when;
    }

    /** True once the deadline has fired (while the cancellation unwinds, and after). */
    public boolean expired() {
        return state == State.EXPIRING || state == State.EXPIRED;
    }

    /**
     * Moves the deadline to the loop time {@code when}, or removes it ({@code null}). A deadline
     * already in the past fires at the loop's next turn. Only while the body runs.
     */
    public void reschedule(Double when) {
        if (state != State.ENTERED) {
            throw new IllegalStateException(state == State.CREATED ? "Timeout has not been entered"
                    : "Cannot change state of " + state.name().toLowerCase() + " Timeout");
        }
        this.when = when;
        if (handle != null) {
            handle.cancel();
            handle = null;
        }
        if (when != null) {
            EventLoop loop = task.getLoop();
            handle = when <= loop.time() ? loop.callSoon(this::onDeadline) : loop.callAt(when, this::onDeadline);
        }
    }

    /** Runs {@code body} under this deadline; returns its result. Each Timeout runs once. */
    public <T> T run(Coroutine<T> body) {
        return run(t -> body.run());
    }

    /** Runs {@code body}, which returns nothing, under this deadline. */
    public void run(VoidCoroutine body) {
        run(t -> {
            body.run();
            return null;
        });
    }

    /** Runs {@code body} under this deadline, handing it this timeout; returns its result. */
    public <T> T run(Body<T> body) {
        enter();
        T result;
        try {
            result = body.run(this);
        } catch (Throwable error) {
            throw Throwables.sneakyThrow(exit(error));
        }
        exit(null);
        return result;
    }

    private void enter() {
        if (state != State.CREATED) {
            throw new IllegalStateException("Timeout has already been entered");
        }
        Task<?> current = Task.current();
        if (current == null) {
            throw new IllegalStateException("Timeout should be used inside a task");
        }
        state = State.ENTERED;
        task = current;
        cancellingOnEntry = current.cancelling();
        reschedule(when);
    }

    /** Leaves the scope; returns what the body's exit should throw (null after a normal exit). */
    private Throwable exit(Throwable error) {
        if (handle != null) {
            handle.cancel();
            handle = null;
        }
        if (state == State.EXPIRING) {
            state = State.EXPIRED;
            // Our own cancel() is balanced here; if no other request is pending, the
            // cancellation that ends the body is ours, and it becomes a timeout.
            if (task.uncancel() <= cancellingOnEntry && error != null) {
                if (error instanceof CancelledError cancelled) {
                    return new TimeoutException(cancelled);
                }
                // The body turned our cancellation into another failure: keep it, but record
                // that the deadline was behind it (asyncio chains a TimeoutError the same way).
                error.addSuppressed(new TimeoutException("the deadline expired while the body ran"));
            }
        } else if (state == State.ENTERED) {
            state = State.EXITED;
        }
        return error;
    }

    private void onDeadline() {
        task.cancel();
        state = State.EXPIRING;
        handle = null;
    }

    @Override
    public String toString() {
        return "<Timeout [" + state.name().toLowerCase() + "]" + (when != null ? " when=" + when : "") + ">";
    }
}
