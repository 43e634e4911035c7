package io.jasyncio.loop;

import io.jasyncio.context.Context;

/**
 * A callback due at a deadline: what {@code callLater}/{@code callAt} return. Cancelling only
 * marks it; the loop drops it from its heap lazily (see {@link TimerHeap}).
 *
 * <p>The deadline is kept twice: in nanoseconds, which order the heap and decide when it runs,
 * and as the exact seconds it was given ({@code callAt(t)}: t; {@code callLater(d)}:
 * {@code time() + d}), which {@link #when()} returns, as asyncio stores the float: a double
 * does not survive the round trip through whole nanoseconds.
 */
public final class TimerHandle extends Handle {
    final long deadlineNanos;
    private final double when;
    final long sequence;
    /** The heap this handle sits in, or null when it is not scheduled (ran, dropped, or not yet pushed). */
    TimerHeap heap;

    TimerHandle(CoreEventLoop loop, long deadlineNanos, long sequence, Runnable callback,
                Object contextSnapshot, Context context) {
        this(loop, deadlineNanos, deadlineNanos / 1e9, sequence, callback, contextSnapshot, context);
    }

    TimerHandle(CoreEventLoop loop, long deadlineNanos, double when, long sequence, Runnable callback,
                Object contextSnapshot, Context context) {
        super(loop, callback, contextSnapshot, context);
        this.deadlineNanos = deadlineNanos;
        this.when = when;
        this.sequence = sequence;
    }

    /** The deadline, in the loop's {@link EventLoop#time()} seconds: exactly the value scheduled. */
    public double when() {
        return when;
    }

    /** The deadline in the loop's {@link EventLoop#nanoTime()} nanoseconds. */
    public long whenNanos() {
        return deadlineNanos;
    }

    @Override
    public void cancel() {
        if (!isCancelled()) {
            super.cancel();
            if (heap != null) {
                heap.timerCancelled(); // the heap counts its cancelled timers for asyncio's purge rule
            }
        }
    }

    /** Deadline first; equal deadlines in scheduling order. */
    boolean runsBefore(TimerHandle other) {
        if (deadlineNanos != other.deadlineNanos) {
            return deadlineNanos < other.deadlineNanos;
        }
        return sequence < other.sequence;
    }

    @Override
    public String toString() {
        return "<TimerHandle when=" + when() + " " + describe(callback) + (isCancelled() ? " cancelled" : "") + ">";
    }
}
