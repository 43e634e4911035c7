package io.jasyncio.loop;

import java.lang.ref.Cleaner;

/**
 * Reports resources that were garbage-collected without being closed: asyncio's
 * {@code ResourceWarning: unclosed event loop} / {@code unclosed transport}. A loop, transport or
 * server {@linkplain #track tracks} itself when created and tells its tracker when it is closed;
 * if it becomes unreachable first, a WARNING names it on the {@code io.jasyncio.resources}
 * {@link System.Logger}, with where it was created when that was captured (debug mode).
 *
 * <p>Only a report: the cleaning action must not reach the resource (that would keep it alive),
 * so it cannot close it. Close what you open (try-with-resources).
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
        Tracker tracker = new Tracker(description, withCreationStack ? CreationStack.capture() : null);
        tracker.cleanable = CLEANER.register(resource, tracker);
        return tracker;
    }

    /** The report-in-waiting of one resource. Holds only strings: never the resource itself. */
    public static final class Tracker implements Runnable {
        private final String description;
        private final StackTraceElement[] creationStack;
        private Cleaner.Cleanable cleanable;
        private volatile boolean closed;

        private Tracker(String description, StackTraceElement[] creationStack) {
            this.description = description;
            this.creationStack = creationStack;
        }

        /** The resource was closed: nothing to report. Idempotent. */
        public void closed() {
            if (!closed) {
                closed = true;
                cleanable.clean(); // unregisters; run() sees closed and stays silent
            }
        }

        @Override
        public void run() {
            if (closed) {
                return;
            }
            closed = true;
            String message = "unclosed " + description;
            if (creationStack != null && creationStack.length > 0) {
                message += "\n" + CreationStack.format(creationStack);
            }
            LOG.log(System.Logger.Level.WARNING, message);
        }
    }
}
