package io.jasyncio.debug;

import io.jasyncio.loop.EagerSteps;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Handle;
import io.jasyncio.loop.LoopObserver;
import jdk.jfr.FlightRecorder;

/**
 * An observer that commits a {@link SlowCallbackEvent} for every handle that ran longer than the
 * loop's {@code slowCallbackDuration}, in or out of debug mode. A fast handle costs one
 * comparison; a slow one allocates the event only if JFR is running, to ask whether a recording
 * wants it.
 */
public final class SlowCallbackEvents implements LoopObserver {
    private final EventLoop loop;
    /** The eager task steps in the running handle, named with it when it is slow. */
    private final EagerSteps eagerSteps = new EagerSteps();

    /** An observer for {@code loop}; install it with {@code CompositeObserver} or {@code setObserver}. */
    public SlowCallbackEvents(EventLoop loop) {
        this.loop = loop;
    }

    @Override
    public void eagerStepFinished(Handle step, long nanos) {
        eagerSteps.add(step, nanos);
    }

    @Override
    public void handleFinished(Handle handle, long nanos) {
        if (nanos >= loop.getSlowCallbackDuration() * 1e9) {
            commit(handle, nanos, eagerSteps);
        }
        eagerSteps.clear();
    }

    /** Commits one {@link SlowCallbackEvent} for {@code handle}, which ran {@code nanos}, if a recording wants it. */
    public static void commit(Handle handle, long nanos) {
        commit(handle, nanos, null);
    }

    /**
     * As {@link #commit(Handle, long)}, naming after the handle the eager task steps that ran in it
     * ({@code inside}, may be null), as debug mode's line does.
     */
    public static void commit(Handle handle, long nanos, EagerSteps inside) {
        // Until JFR is initialized no recording can want the event: skip its one-time setup cost.
        if (FlightRecorder.isInitialized()) {
            SlowCallbackEvent event = new SlowCallbackEvent();
            if (event.isEnabled()) {
                event.handle = handle.describeForReport() + (inside != null ? inside.describe() : "");
                event.took = nanos;
                event.commit();
            }
        }
    }
}
