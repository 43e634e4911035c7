package io.jasyncio.nativeio;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * How a native backend binds libc: one FFM downcall handle per function, found in the C library
 * the JVM already loaded, and an {@link Errno} segment for the calls that report errno. Shared by
 * {@link LibC}, {@code linux.EpollSys}, {@code linux.EventFdSys} and the io_uring loop
 * ({@code UringSys}); exported to every module, as the backend kit.
 */
public final class Downcalls {
    private Downcalls() {
    }

    /** Pass to {@link #bind} for a call that fails through errno: its handle then takes an {@link Errno} segment first. */
    public static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MemoryLayout ERRNO_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = ERRNO_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    /** The downcall handle of the libc function {@code name}. */
    @SuppressWarnings("restricted") // native access is granted by --enable-native-access
    public static MethodHandle bind(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment symbol = LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    /**
     * Where one thread's calls leave errno: the linker copies it there right after the call,
     * before the JVM can clobber it. Not shared between threads.
     */
    public static final class Errno {
        /** The segment passed as a bound call's first argument. */
        public final MemorySegment segment;

        /** Allocates the errno slot in {@code arena}, which bounds its lifetime. */
        public Errno(Arena arena) {
            this.segment = arena.allocate(ERRNO_LAYOUT);
        }

        /** errno as the last call through this segment left it. */
        public int value() {
            return (int) ERRNO.get(segment, 0L);
        }
    }

    /** Downcalls throw nothing checked: anything caught around {@code invokeExact} is a binding bug. */
    public static RuntimeException linkageFailure(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("native call failed", t);
    }
}
