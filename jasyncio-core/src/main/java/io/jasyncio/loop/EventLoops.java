package io.jasyncio.loop;

import io.jasyncio.loop.spi.EventLoopProvider;
import io.jasyncio.loop.spi.LoopContract;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * Finding and making loops: the running loop of this thread, and new loops of the chosen
 * implementation ({@code -Djasyncio.loop=nio|epoll|io_uring|...}, default {@code nio}), each found
 * as an {@link EventLoopProvider}, nio's included.
 */
public final class EventLoops {
    private EventLoops() {
    }

    /** The loop running on this thread; throws when there is none (asyncio's get_running_loop). */
    public static EventLoop getRunningLoop() {
        EventLoop loop = RunningLoop.get();
        if (loop == null) {
            throw new IllegalStateException("no running event loop on thread '" + Thread.currentThread().getName() + "'");
        }
        return loop;
    }

    /** The loop running on this thread, or null. */
    public static EventLoop runningLoopOrNull() {
        return RunningLoop.get();
    }

    /**
     * For a task engine that runs each task body on a thread of its own: from now on the calling
     * thread finds {@code loop} as its running loop and passes the loop's own-thread checks, as
     * the body would on the loop's thread. The engine guarantees that this thread runs only
     * while the loop's thread waits for it to hand control back.
     */
    public static void actAsLoopThread(EventLoop loop) {
        RunningLoop.set(Objects.requireNonNull(loop, "loop"));
    }

    /** A new loop of the default implementation. */
    public static EventLoop newEventLoop() {
        return newEventLoop(defaultLoopName());
    }

    /** The implementation {@link #newEventLoop()} makes: {@code -Djasyncio.loop}, else {@code nio}. */
    public static String defaultLoopName() {
        return System.getProperty("jasyncio.loop", DEFAULT_LOOP);
    }

    /** The loop a JVM makes unless {@code -Djasyncio.loop} names another. */
    private static final String DEFAULT_LOOP = "nio";

    /** A new loop of the named implementation: the library's loop over the backend of the provider of that name. */
    public static EventLoop newEventLoop(String name) {
        EventLoopProvider provider = providers().get(name);
        if (provider == null) {
            throw new IllegalArgumentException("unknown event loop '" + name + "'; available: " + availableNames());
        }
        return newEventLoop(provider);
    }

    /**
     * A new loop over the backend {@code provider} opens, whether or not the service lookup finds
     * it (a provider set up in code, for a test or an embedding).
     */
    public static EventLoop newEventLoop(EventLoopProvider provider) {
        if (!provider.isAvailable()) {
            throw new IllegalStateException("event loop '" + provider.name() + "' cannot run here: "
                    + provider.unavailableReason());
        }
        return new CoreEventLoop(provider);
    }

    /** The name of the implementation {@code loop} was made with ({@code "nio"}, {@code "epoll"}, ...). */
    public static String implementationOf(EventLoop loop) {
        return LoopContract.of(loop).implementationName();
    }

    /** Names of the implementations that can run here, the default ("nio") first. */
    public static List<String> availableNames() {
        List<String> names = new ArrayList<>();
        for (EventLoopProvider p : providers().values()) {
            if (p.isAvailable() && !names.contains(p.name())) {
                names.add(p.name());
            }
        }
        return names;
    }

    /** The providers by name, the default loop's first, then in the order the service lookup finds them. */
    private static Map<String, EventLoopProvider> providers() {
        Map<String, EventLoopProvider> found = new LinkedHashMap<>();
        for (EventLoopProvider p : ServiceLoader.load(EventLoopProvider.class)) {
            found.putIfAbsent(p.name(), p);
        }
        Map<String, EventLoopProvider> byName = new LinkedHashMap<>();
        if (found.containsKey(DEFAULT_LOOP)) {
            byName.put(DEFAULT_LOOP, found.get(DEFAULT_LOOP));
        }
        byName.putAll(found);
        return byName;
    }

    /**
     * Told of every loop as it is created and as it closes: with {@code -Djasyncio.doctor} or
     * {@code -Djasyncio.jmx=true} (or when the JVM's platform MBean server already exists) the
     * registered services (the doctor, the loops' management beans) are; a tool that starts
     * watching later adds itself ({@link #addCreationListener}). Called from the loop's
     * constructor and {@code close()}: only keep the loop.
     */
    public interface CreationListener {
        /** Told of each new loop, from its constructor. */
        void loopCreated(EventLoop loop);

        /** Told when a loop closes; does nothing unless overridden. */
        default void loopClosed(EventLoop loop) {
        }
    }

    /** A live loop and its id, the number of its creation in this JVM (0 first): how tools name loops. */
    public record LiveLoop(int id, EventLoop loop) {
    }

    /** The loops of this JVM not closed yet (and not collected), oldest first. Any thread. */
    public static List<LiveLoop> liveLoops() {
        return LiveLoops.snapshot();
    }

    /**
     * Tells {@code listener} of every loop created or closed from now on, and returns the loops
     * already live: how a tool that starts watching a running program catches up.
     */
    public static List<LiveLoop> addCreationListener(CreationListener listener) {
        return LiveLoops.addListener(listener);
    }

    static void loopCreated(CoreEventLoop loop) {
        LiveLoops.add(loop);
        if (CreationListeners.ALL.length != 0) {
            for (CreationListener listener : CreationListeners.ALL) {
                listener.loopCreated(loop);
            }
        }
    }

    static void loopClosed(CoreEventLoop loop) {
        LiveLoops.remove(loop);
        for (CreationListener listener : CreationListeners.ALL) {
            listener.loopClosed(loop);
        }
    }

    /**
     * Loaded once, and only when the doctor's or the beans' property is set or a platform MBean
     * server already runs (a JMX agent, an exporter, a framework): otherwise there are none.
     */
    private static final class CreationListeners {
        static final CreationListener[] ALL = !wanted()
                ? new CreationListener[0]
                : ServiceLoader.load(CreationListener.class).stream().map(ServiceLoader.Provider::get)
                        .toArray(CreationListener[]::new);

        private static boolean wanted() {
            return System.getProperty("jasyncio.doctor") != null || Boolean.getBoolean("jasyncio.jmx")
                    || !javax.management.MBeanServerFactory.findMBeanServer(null).isEmpty();
        }
    }
}
