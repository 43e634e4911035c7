package io.jasyncio.loop;

import io.jasyncio.context.Context;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The process's signal handlers and the loops they belong to (asyncio's
 * {@code add_signal_handler}, over the JDK's {@code sun.misc.Signal} from the
 * {@code jdk.unsupported} module, which needs no JVM flag). A signal is process-wide, so one
 * loop at a time handles it. The JDK runs each delivery on a short-lived thread of its own;
 * from there a loop's handler is queued with {@code callSoonThreadsafe} and runs on the loop
 * thread, in the context that was current when it was added (one context, kept across calls,
 * as asyncio's handle keeps its copy).
 *
 * <p>Removing the last handler of a signal puts back the handler the JVM had before (for
 * SIGINT, SIGTERM and SIGHUP: run the shutdown hooks and exit). Closing a loop removes its
 * handlers. A signal that arrives for a loop closed meanwhile gets the JVM's handler back and is
 * raised again, so SIGTERM still ends the process.
 */
@SuppressWarnings("sunapi") // sun.misc.Signal: supported by jdk.unsupported until a standard API exists
public final class SignalHandlers {
    private SignalHandlers() {
    }

    /** What runs, on the JDK's signal thread, when {@code signal} arrives for {@code loop}. */
    private record Installed(EventLoop loop, Runnable onSignalThread, sun.misc.SignalHandler jvmHandler) {
    }

    private static final Map<Signal, Installed> INSTALLED = new EnumMap<>(Signal.class);

    /**
     * Null when {@code sun.misc.Signal} can be used, else why not: on the module path the
     * {@code jdk.unsupported} module is resolved only when something requires it (or with
     * {@code --add-modules jdk.unsupported}); on the class path it always is.
     */
    private static final String UNAVAILABLE = ModuleLayer.boot().findModule("jdk.unsupported").isPresent() ? null
            : "the jdk.unsupported module is not in this JVM's module graph (add --add-modules jdk.unsupported)";

    /** {@link EventLoop#addSignalHandler}: {@code callback} runs on the loop thread at each delivery. */
    public static void add(EventLoop loop, Signal signal, Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        Context context = Context.copyCurrent();
        install(loop, signal, () -> loop.callSoonThreadsafe(() -> context.run(callback)));
    }

    /**
     * Installs {@code onSignalThread}, which runs on the JDK's signal thread itself (it must only
     * hand work over, e.g. with {@code callSoonThreadsafe}), unless another handler of ours
     * already has {@code signal}. Returns the handle to remove it with, or null when it was not
     * installed. What {@code Runner} uses for SIGINT: a second Ctrl-C must work even while the
     * loop thread is stuck.
     */
    public static Object interceptIfFree(EventLoop loop, Signal signal, Runnable onSignalThread) {
        synchronized (INSTALLED) {
            if (INSTALLED.containsKey(signal)) {
                return null;
            }
            Installed installed;
            try {
                installed = install(loop, signal, onSignalThread);
            } catch (UnsupportedOperationException notHere) {
                return null; // e.g. -Xrs: the JVM keeps the signal
            }
            if (!isJvmDefault(installed.jvmHandler)) {
                uninstall(signal, installed); // the application set its own handler: leave it alone, as asyncio does
                return null;
            }
            return installed;
        }
    }

    /**
     * The JVM's own handling: the shutdown hooks' handler or the system default. sun.misc hands
     * the JVM's handler back wrapped, named only by its {@code toString} ("java.lang.Terminator$1@...");
     * SigintTest fails if a JDK stops naming it so.
     */
    private static boolean isJvmDefault(sun.misc.SignalHandler handler) {
        return handler == sun.misc.SignalHandler.SIG_DFL || String.valueOf(handler).startsWith("java.lang.Terminator");
    }

    private static Installed install(EventLoop loop, Signal signal, Runnable onSignalThread) {
        if (UNAVAILABLE != null) {
            throw new UnsupportedOperationException("signal handlers are not available here: " + UNAVAILABLE);
        }
        if (loop.isClosed()) {
            throw new IllegalStateException("Event loop is closed");
        }
        synchronized (INSTALLED) {
            Installed current = INSTALLED.get(signal);
            if (current != null && current.loop != loop && !current.loop.isClosed()) {
                throw new IllegalStateException(signal + " is already handled by another loop: " + current.loop);
            }
            sun.misc.SignalHandler jvmHandler;
            if (current != null) {
                jvmHandler = current.jvmHandler;
            } else {
                try {
                    jvmHandler = sun.misc.Signal.handle(new sun.misc.Signal(signal.jvmName()), SignalHandlers::dispatch);
                } catch (IllegalArgumentException e) {
                    throw new UnsupportedOperationException(signal + " cannot be handled in this JVM: " + e.getMessage(), e);
                }
            }
            Installed installed = new Installed(loop, onSignalThread, jvmHandler);
            INSTALLED.put(signal, installed);
            return installed;
        }
    }

    /** {@link EventLoop#removeSignalHandler}: whether {@code loop} had a handler for {@code signal}. */
    public static boolean remove(EventLoop loop, Signal signal) {
        synchronized (INSTALLED) {
            Installed current = INSTALLED.get(signal);
            if (current == null || current.loop != loop) {
                return false;
            }
            uninstall(signal, current);
            return true;
        }
    }

    /** Removes what {@link #interceptIfFree} installed, unless a handler added since replaced it. */
    public static void removeIntercept(Signal signal, Object handle) {
        synchronized (INSTALLED) {
            if (handle != null && INSTALLED.get(signal) == handle) {
                uninstall(signal, (Installed) handle);
            }
        }
    }

    /** Every handler of {@code loop}: what closing a loop does. */
    public static void removeAll(EventLoop loop) {
        synchronized (INSTALLED) {
            if (INSTALLED.isEmpty()) {
                return;
            }
            for (Signal signal : Signal.values()) {
                remove(loop, signal);
            }
        }
    }

    /** The loop handling {@code signal} now, or null. */
    public static EventLoop owner(Signal signal) {
        synchronized (INSTALLED) {
            Installed current = INSTALLED.get(signal);
            return current == null ? null : current.loop;
        }
    }

    /** Gives {@code signal} back to the JVM's own handler, then raises it: how a second Ctrl-C ends the process. */
    public static void raiseToJvm(Signal signal) {
        synchronized (INSTALLED) {
            Installed current = INSTALLED.get(signal);
            if (current != null) {
                uninstall(signal, current);
            }
        }
        raise(signal);
    }

    public static void raise(Signal signal) {
        sun.misc.Signal.raise(new sun.misc.Signal(signal.jvmName()));
    }

    private static void uninstall(Signal signal, Installed installed) {
        INSTALLED.remove(signal);
        sun.misc.Signal.handle(new sun.misc.Signal(signal.jvmName()), installed.jvmHandler);
    }

    private static void dispatch(sun.misc.Signal received) {
        Signal signal = Signal.valueOf("SIG" + received.getName());
        Installed current;
        synchronized (INSTALLED) {
            current = INSTALLED.get(signal);
        }
        if (current == null) {
            return;
        }
        try {
            current.onSignalThread.run();
        } catch (IllegalStateException loopClosed) {
            raiseToJvm(signal);
        }
    }
}
