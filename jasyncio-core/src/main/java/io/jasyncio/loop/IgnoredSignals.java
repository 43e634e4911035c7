package io.jasyncio.loop;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * A signal the process inherited as ignored: a JVM started in the background by a shell
 * ({@code java ... &} in a script) or by {@code nohup} ignores SIGINT (or SIGHUP), and the JVM
 * installs no handler over an ignored SIGINT, SIGTERM or SIGHUP: {@code sun.misc.Signal.handle}
 * hands back {@code SIG_IGN} and the signal stays ignored. asyncio's {@code add_signal_handler}
 * installs its handler whatever the inherited disposition; to do the same, the disposition is set
 * back to the default with libc's {@code signal(2)} (over the FFM API, a restricted method),
 * after which the JVM installs the handler as usual.
 */
final class IgnoredSignals {
    private IgnoredSignals() {
    }

    /**
     * Sets {@code signal}'s disposition to the default (SIG_DFL), or fails saying why. Until the
     * caller installs its handler, the signal has its default effect (for SIGINT: the process ends).
     */
    static void restoreDefault(String name, int number) {
        MethodHandle signal;
        try {
            signal = Libc.SIGNAL;
        } catch (IllegalCallerException | ExceptionInInitializerError refused) {
            throw new UnsupportedOperationException("SIG" + name + " is ignored in this process (inherited: started in "
                    + "the background by a shell, or by nohup), and the JVM installs no handler over an ignored signal; "
                    + "putting its default back needs native access: --enable-native-access=io.jasyncio.core "
                    + "(ALL-UNNAMED on the class path)", refused);
        }
        MemorySegment previous;
        try {
            previous = (MemorySegment) signal.invokeExact(number, MemorySegment.NULL); // NULL is SIG_DFL
        } catch (Throwable t) {
            throw new IllegalStateException("signal(" + number + ", SIG_DFL) failed", t);
        }
        if (previous.address() == -1L) { // SIG_ERR
            throw new IllegalStateException("signal(" + number + ", SIG_DFL) refused SIG" + name);
        }
    }

    /** libc's signal(2), bound on first use: only a process that inherited an ignored signal pays for it. */
    private static final class Libc {
        static final MethodHandle SIGNAL = bind();

        @SuppressWarnings("restricted") // native access: see the class comment
        private static MethodHandle bind() {
            Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().find("signal").orElseThrow(),
                    FunctionDescriptor.of(ADDRESS, JAVA_INT, ADDRESS));
        }
    }
}
