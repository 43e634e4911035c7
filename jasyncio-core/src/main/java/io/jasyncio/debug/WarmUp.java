package io.jasyncio.debug;

import java.util.List;

/**
 * The one rule for "the JVM warming up, not the program holding its loop", shared by the
 * watchdog (and so {@code @AsyncTest}'s slow-step reports) and the doctor: a hold whose stack,
 * taken while it lasted, is loading or initialising classes (a static initialiser, a class loader,
 * the first linkage of a lambda or method handle). Such a hold happens once per class per JVM: it
 * is reported as warm-up, not counted against the program.
 */
public final class WarmUp {
    private WarmUp() {
    }

    /** Whether {@code stack} (innermost frame first) is the JVM loading or initialising classes. */
    public static boolean isWarmUp(List<StackTraceElement> stack) {
        for (StackTraceElement frame : stack) {
            if (isClassLoading(frame.toString())) {
                return true;
            }
        }
        return false;
    }

    /** Whether one frame, as {@link StackTraceElement#toString()} prints it, is class loading or initialisation. */
    public static boolean isClassLoading(String frame) {
        return frame.contains("<clinit>") || frame.contains("ClassLoader.loadClass")
                || frame.contains("jdk.internal.loader.") || frame.contains("java.lang.invoke.");
    }
}
