package io.jasyncio.util;

import java.lang.ref.Cleaner;

/**
 * Resources that were garbage-collected without being closed: asyncio's
 * {@code ResourceWarning: unclosed event loop} / {@code unclosed transport}, and the closing
 * Python's socket objects do when they are collected. A loop, transport or server
 * {@linkplain #track tracks} itself when created and tells its tracker when it is closed; if it
 * becomes unreachable first, a WARNING names it on the {@code io.jasyncio.resources}
 * {@link System.Logger} (with where it was created when that was captured, in debug mode), and
 * its release action runs: a transport's closes its channel, a server's its listening sockets.
 *
 * <p>The tracker and its release action must not reach the resource (that would keep it
 * alive): they hold strings and the underlying channels, never the transport or server itself.
 * Collection is a safety net, not a way to close: close what you open (try-with-resources).
 */
public final class ResourceWarnings {
    private static final Cleaner CLEANER = Cleaner.create();
    private static final System.Logger LOG = System.getLogger("io.jasyncio.resources");

    private ResourceWarnings() {
    }

    /**
     * Watches {@code resource}: unless {@link Tracker#closed()} is called first, its collection is
     * reported as "unclosed {@code description}". {@code withCreationStack} also records where it
     * was created (pass the loop's debug flag).
     */
    public static Tracker track(Object resource, String description, boolean withCreationStack) {
        return track(resource, description, withCreationStack ? CreationStack.capture() : null, null);
    }

    /**
     * As {@link #track(Object, String, boolean)}, with a creation stack already taken (or null),
     * and runs {@code release} (on the cleaner's thread) when the resource is collected
     * unclosed. A null {@code description} releases without a warning.
     */
    public static Tracker track(Object resource, String description, StackTraceElement[] creationStack,
                                Runnable release) {
        Tracker tracker = new Tracker(description, creationStack, release);
        tracker.cleanable = CLEANER.register(resource, tracker);
        return tracker;
    }

    /** The report-in-waiting of one resource. Never holds the resource itself. */
    public static final class Tracker implements Runnable {
        private final String description;
        private final StackTraceElement[] creationStack;
        private final Runnable release;
        private Cleaner.Cleanable cleanable;
        private volatile boolean closed;

        private Tracker(String description, StackTraceElement[] creationStack, Runnable release) {
            this.description = description;
            this.creationStack = creationStack;
            this.release = release;
        }

        /** The resource was closed: nothing to report or release. Idempotent. */
        public void closed() {
            if (!closed) {
                closed = true;
                cleanable.clean(); // unregisters; run() sees closed and does nothing
            }
        }

        @Override
        public void run() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (description != null) {
                    String message = "unclosed " + description;
                    if (creationStack != null && creationStack.length > 0) {
                        message += "\n" + CreationStack.format(creationStack);
                    }
                    LOG.log(System.Logger.Level.WARNING, message);
                }
            } finally {
                if (release != null) {
                    release.run();
                }
            }
        }
    }
}
