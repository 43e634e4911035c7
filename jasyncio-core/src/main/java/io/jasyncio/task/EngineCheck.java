package io.jasyncio.task;

/**
 * Chooses the {@link TaskEngine} once per JVM, and fails the first use of tasks with one clear
 * sentence when the engine asked for cannot run.
 *
 * <ul>
 *   <li>{@code -Djasyncio.engine=continuation}: the continuation engine; without the export it
 *       needs, every use of tasks fails saying which flag to add.</li>
 *   <li>{@code -Djasyncio.engine=threads}: the portable engine, whatever the flags.</li>
 *   <li>unset: the continuation engine when the JVM exports {@code jdk.internal.vm} to us, else
 *       the portable engine, with one line on standard error saying how to get the faster one
 *       (and that {@code -Djasyncio.engine=threads} silences it).</li>
 * </ul>
 */
final class EngineCheck {
    static final String PROPERTY = "jasyncio.engine";
    /**
     * The flag that exports continuations to this library: to {@code ALL-UNNAMED} on the class
     * path, to the library's module by name on the module path.
     */
    static final String EXPORT_FLAG = "--add-exports java.base/jdk.internal.vm="
            + (EngineCheck.class.getModule().isNamed() ? EngineCheck.class.getModule().getName() : "ALL-UNNAMED");
    /**
     * The automatic fall-back's one line on standard error, as the JDK's own one-line warnings
     * (a logger's default format would take two); choosing an engine with the property silences it.
     */
    static final String ANNOUNCEMENT = "jasyncio task engine: threads (portable; each task body on a virtual thread). "
            + "For the faster continuation engine start the JVM with " + EXPORT_FLAG
            + "; -D" + PROPERTY + "=threads keeps this one and silences this line.";
    private static final System.Logger LOG = System.getLogger("io.jasyncio.task");
    private static volatile boolean checked;

    private EngineCheck() {
    }

    /** Throws the clear sentence when the engine asked for cannot run here; cheap once it passed. */
    static void ensureAvailable() {
        if (checked) {
            return;
        }
        String asked = askedEngine();
        if (asked != null && !asked.equals("continuation") && !asked.equals("threads")) {
            throw new IllegalStateException("-D" + PROPERTY + "=" + asked + " names no task engine: use continuation or threads");
        }
        if ("continuation".equals(asked) && !continuationsExported()) {
            throw new IllegalStateException("jasyncio tasks run on JDK continuations (-D" + PROPERTY + "=continuation): "
                    + "start the JVM with " + EXPORT_FLAG + " (the ./jasyncio launcher does this), or leave "
                    + PROPERTY + " unset to use the portable engine");
        }
        checked = true;
    }

    /** The engine for this JVM; logs the automatic choice. Called once, by {@link TaskEngine#CHOSEN}. */
    static TaskEngine chosenEngine() {
        ensureAvailable();
        String asked = askedEngine();
        if (asked != null) {
            return asked.equals("continuation") ? new ContinuationEngine() : new ThreadEngine();
        }
        if (continuationsExported()) {
            LOG.log(System.Logger.Level.DEBUG, "jasyncio task engine: continuation (jdk.internal.vm is exported)");
            return new ContinuationEngine();
        }
        System.err.println(ANNOUNCEMENT);
        return new ThreadEngine();
    }

    private static String askedEngine() {
        String asked = System.getProperty(PROPERTY);
        return asked == null || asked.isBlank() ? null : asked.trim();
    }

    private static boolean continuationsExported() {
        return Object.class.getModule().isExported("jdk.internal.vm", EngineCheck.class.getModule());
    }
}
