package io.jasyncio.task;

/** Fails the first use of tasks with one clear sentence when the JVM lacks the needed export. */
final class EngineCheck {
    private static volatile boolean checked;

    private EngineCheck() {
    }

    static void ensureAvailable() {
        if (checked) {
            return;
        }
        Module base = Object.class.getModule();
        if (!base.isExported("jdk.internal.vm", EngineCheck.class.getModule())) {
            throw new IllegalStateException("jasyncio tasks run on JDK continuations: start the JVM with "
                    + "--add-exports java.base/jdk.internal.vm=ALL-UNNAMED (the ./jasyncio launcher does this)");
        }
        checked = true;
    }
}
