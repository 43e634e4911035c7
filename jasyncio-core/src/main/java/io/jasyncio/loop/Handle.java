package io.jasyncio.loop;

import io.jasyncio.context.Context;
import io.jasyncio.loop.spi.ReadyCallback;

/**
 * A callback in the ready queue, as asyncio's {@code Handle}. It runs in the context that was
 * current when it was scheduled (or in the one given explicitly), and can be cancelled until
 * then. I/O handles are reused: the loop queues the same reader handle each time its channel
 * is readable.
 */
public class Handle implements ReadyCallback {
    /** The {@link #context} of a cancelled handle, which never runs: a mark that costs no field. */
    private static final Object CANCELLED = new Object();

    final EventLoop loop;
    Runnable callback;
    /**
     * What the callback runs in: an explicit {@link Context} (changes persist there), or bindings
     * captured at scheduling time ({@link Context#snapshot()}), or {@link #CANCELLED}. One field
     * for the three keeps a handle at 24 bytes: callSoon allocates one per call.
     */
    Object context;

    Handle(EventLoop loop, Runnable callback, Object contextSnapshot, Context context) {
        this.loop = loop;
        this.callback = callback;
        this.context = context != null ? context : contextSnapshot;
    }

    /** Cancels the callback: it will not run. Idempotent. */
    @Override
    public void cancel() {
        if (context != CANCELLED) {
            context = CANCELLED;
            if (!loop.getDebug()) {
                callback = null; // let go of what the callback holds, as asyncio does
            }
        }
    }

    /** Whether {@link #cancel()} was called. */
    @Override
    public final boolean isCancelled() {
        return context == CANCELLED;
    }

    /** The callback this handle runs (null once cancelled outside debug mode). */
    public Runnable callback() {
        return callback;
    }

    /**
     * How reports (slow callbacks, the watchdog) name this handle: a callback that can describe
     * itself does (a task's step names the task, as asyncio's {@code _format_handle}), others
     * show as the handle.
     */
    public String describeForReport() {
        Runnable cb = callback;
        return cb instanceof Describable d ? d.describe() : toString();
    }

    @Override
    public String toString() {
        return "<Handle " + describe(callback) + (isCancelled() ? " cancelled" : "") + ">";
    }

    static String describe(Object callback) {
        if (callback == null) {
            return "(released)";
        }
        if (callback instanceof Describable d) {
            return d.describe();
        }
        return describeClass(callback.getClass());
    }

    /** A callback's or body's class as reports show it: a lambda as "DeclaringClass lambda". */
    public static String describeClass(Class<?> type) {
        String s = type.getName();
        int lambda = s.indexOf("$$Lambda");
        return lambda > 0 ? s.substring(0, lambda) + " lambda" : s;
    }

    /** A callback that can name itself in reports (slow callbacks, failures). */
    public interface Describable {
        /** The callback's name for reports. */
        String describe();
    }
}
