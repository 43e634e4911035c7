package io.jasyncio.subprocess;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * POSIX signal numbers for {@link Subprocess#sendSignal}, and how a signal reaches a child.
 * SIGTERM and SIGKILL go through {@link Process#destroy()} and {@link Process#destroyForcibly()};
 * any other signal through libc's {@code kill(2)} over the FFM API, a restricted method: without
 * {@code --enable-native-access} the JDK prints a one-time warning on first use.
 */
public final class Signals {
    /** Hang-up. */
    public static final int SIGHUP = 1;
    /** Interrupt (Ctrl-C). */
    public static final int SIGINT = 2;
    /** Quit (with a core dump, by default). */
    public static final int SIGQUIT = 3;
    /** Kill: cannot be caught or ignored. */
    public static final int SIGKILL = 9;
    /** User-defined signal 1 (Linux's number). */
    public static final int SIGUSR1 = 10;
    /** User-defined signal 2 (Linux's number). */
    public static final int SIGUSR2 = 12;
    /** Termination: a polite request to stop. */
    public static final int SIGTERM = 15;

    private Signals() {
    }

    /** Sends {@code signal} to {@code process} unless it already exited; returns whether it was sent. */
    static boolean send(Process process, int signal) {
        if (signal <= 0 || signal > 63) {
            throw new IllegalArgumentException("not a signal number: " + signal);
        }
        if (!process.isAlive()) {
            return false;
        }
        switch (signal) {
            case SIGTERM -> process.destroy();
            case SIGKILL -> process.destroyForcibly();
            default -> Kill.send(process.pid(), signal);
        }
        return true;
    }

    /** libc's kill(2), bound on first use of a signal other than SIGTERM and SIGKILL. */
    private static final class Kill {
        private static final MethodHandle KILL = bind();

        @SuppressWarnings("restricted") // native access: see the class comment
        private static MethodHandle bind() {
            Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().find("kill").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
        }

        static void send(long pid, int signal) {
            try {
                int ignored = (int) KILL.invokeExact((int) pid, signal);
            } catch (Throwable t) {
                throw new IllegalStateException("kill(" + pid + ", " + signal + ") failed", t);
            }
        }
    }
}
