package io.jasyncio.debug;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Handle;
import io.jasyncio.loop.LoopObserver;
import io.jasyncio.loop.TimerHandle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Several observers in the loop's single observer slot, called in order, so stats, the watchdog
 * and JFR events can watch the same loop. {@link #add} and {@link #remove} compose with whatever
 * is installed; call them on the loop's thread, or before the loop runs.
 */
public final class CompositeObserver implements LoopObserver {
    private final LoopObserver[] observers;

    private CompositeObserver(LoopObserver[] observers) {
        this.observers = observers;
    }

    /** One observer that tells each of {@code observers} every event, in order. */
    public static CompositeObserver of(LoopObserver... observers) {
        for (LoopObserver o : observers) {
            if (o == null) {
                throw new NullPointerException("observer");
            }
        }
        return new CompositeObserver(observers.clone());
    }

    /** Installs {@code observer} on {@code loop} next to the observers already there. */
    public static void add(EventLoop loop, LoopObserver observer) {
        List<LoopObserver> all = installed(loop);
        all.add(observer);
        install(loop, all);
    }

    /** Removes {@code observer} from {@code loop}, leaving the others installed. */
    public static void remove(EventLoop loop, LoopObserver observer) {
        List<LoopObserver> all = installed(loop);
        all.remove(observer);
        install(loop, all);
    }

    /** The observers in this composite, in calling order. */
    public List<LoopObserver> observers() {
        return List.of(observers);
    }

    private static List<LoopObserver> installed(EventLoop loop) {
        LoopObserver current = loop.getObserver();
        List<LoopObserver> all = new ArrayList<>();
        if (current instanceof CompositeObserver composite) {
            all.addAll(Arrays.asList(composite.observers));
        } else if (current != null) {
            all.add(current);
        }
        return all;
    }

    private static void install(EventLoop loop, List<LoopObserver> all) {
        loop.setObserver(switch (all.size()) {
            case 0 -> null;
            case 1 -> all.getFirst();
            default -> new CompositeObserver(all.toArray(new LoopObserver[0]));
        });
    }

    @Override
    public void beforeSelect(long timeoutNanos, int readyCount, int timerCount) {
        for (LoopObserver o : observers) {
            o.beforeSelect(timeoutNanos, readyCount, timerCount);
        }
    }

    @Override
    public void afterSelect(int ioEvents, long selectNanos) {
        for (LoopObserver o : observers) {
            o.afterSelect(ioEvents, selectNanos);
        }
    }

    @Override
    public void beforeDrain(int timersMoved, int ntodo) {
        for (LoopObserver o : observers) {
            o.beforeDrain(timersMoved, ntodo);
        }
    }

    @Override
    public void handleStarting(Handle handle, long startNanos) {
        for (LoopObserver o : observers) {
            o.handleStarting(handle, startNanos);
        }
    }

    @Override
    public void handleFinished(Handle handle, long nanos) {
        for (LoopObserver o : observers) {
            o.handleFinished(handle, nanos);
        }
    }

    @Override
    public void eagerStepStarting(Handle step, long startNanos) {
        for (LoopObserver o : observers) {
            o.eagerStepStarting(step, startNanos);
        }
    }

    @Override
    public void eagerStepFinished(Handle step, long nanos) {
        for (LoopObserver o : observers) {
            o.eagerStepFinished(step, nanos);
        }
    }

    @Override
    public void iterationFinished() {
        for (LoopObserver o : observers) {
            o.iterationFinished();
        }
    }

    @Override
    public void timerScheduled(TimerHandle timer) {
        for (LoopObserver o : observers) {
            o.timerScheduled(timer);
        }
    }
}
