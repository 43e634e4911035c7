package io.jasyncio.uring;

import io.jasyncio.nativeio.Downcalls;
import io.jasyncio.nativeio.Downcalls.Errno;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static io.jasyncio.nativeio.Downcalls.bind;
import static io.jasyncio.nativeio.Downcalls.linkageFailure;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The system calls the io_uring loop makes, bound once through the FFM API: io_uring_setup and
 * io_uring_enter (through syscall(2): glibc has no wrappers), mmap/munmap for the shared rings,
 * and eventfd/read/close for the wake-up (written by
 * {@link io.jasyncio.nativeio.linux.EventFdWakeup}), bound with {@link Downcalls}. The
 * setup, enter, mmap and eventfd calls report errno in the caller's {@link Errno}. x86-64 system
 * call numbers (aarch64 shares them for io_uring).
 */
final class UringSys {
    private UringSys() {
    }

    static final long SYS_IO_URING_SETUP = 425;
    static final long SYS_IO_URING_ENTER = 426;
    static final long SYS_IO_URING_REGISTER = 427;

    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;
    static final int MAP_PRIVATE = 2;
    static final int MAP_ANONYMOUS = 0x20;
    static final int MAP_POPULATE = 0x8000;
    static final int EFD_NONBLOCK = 0x800;
    static final int EFD_CLOEXEC = 0x80000;

    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int EBUSY = 16;
    static final int ETIME = 62;
    static final int EINVAL = 22;

    private static final Linker.Option ERRNO_OPTION = Downcalls.CAPTURE_ERRNO;

    private static final MethodHandle SETUP = bind("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS), ERRNO_OPTION, Linker.Option.firstVariadicArg(1));
    private static final MethodHandle ENTER = bind("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG),
            ERRNO_OPTION, Linker.Option.firstVariadicArg(1));
    private static final MethodHandle REGISTER = bind("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT),
            ERRNO_OPTION, Linker.Option.firstVariadicArg(1));
    private static final MethodHandle MMAP = bind("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG), ERRNO_OPTION);
    private static final MethodHandle MUNMAP = bind("munmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle EVENTFD = bind("eventfd", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), ERRNO_OPTION);
    private static final MethodHandle READ = bind("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle CLOSE = bind("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle STRERROR = bind("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));

    /** Runs this class's initializer, which binds every function: a failure shows here. */
    static void link() {
    }

    static int ioUringSetup(Errno errno, int entries, MemorySegment params) {
        try {
            return (int) (long) SETUP.invokeExact(errno.segment, SYS_IO_URING_SETUP, entries, params);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int ioUringEnter(Errno errno, int fd, int toSubmit, int minComplete, int flags, MemorySegment arg, long argSize) {
        try {
            return (int) (long) ENTER.invokeExact(errno.segment, SYS_IO_URING_ENTER, fd, toSubmit, minComplete, flags,
                    arg, argSize);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int ioUringRegister(Errno errno, int fd, int opcode, MemorySegment arg, int nrArgs) {
        try {
            return (int) (long) REGISTER.invokeExact(errno.segment, SYS_IO_URING_REGISTER, fd, opcode, arg, nrArgs);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /** mmap of {@code length} bytes of the ring fd at {@code offset}; a segment of that size, or NULL's address -1 on failure. */
    @SuppressWarnings("restricted") // the kernel maps exactly length bytes there
    static MemorySegment mmap(Errno errno, long length, int fd, long offset) {
        try {
            MemorySegment at = (MemorySegment) MMAP.invokeExact(errno.segment, MemorySegment.NULL, length,
                    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, offset);
            return at.address() == -1L ? null : at.reinterpret(length);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /**
     * Anonymous memory of {@code length} bytes, not touched: a page takes memory only once
     * written. Unmapped when {@code arena} closes (then unreachable through the segment); null on failure.
     */
    @SuppressWarnings("restricted") // the kernel maps exactly length bytes there
    static MemorySegment mmapAnonymous(Errno errno, long length, Arena arena) {
        try {
            MemorySegment at = (MemorySegment) MMAP.invokeExact(errno.segment, MemorySegment.NULL, length,
                    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L);
            return at.address() == -1L ? null : at.reinterpret(length, arena, UringSys::munmap);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static void munmap(MemorySegment mapped) {
        try {
            int ignored = (int) MUNMAP.invokeExact(mapped, mapped.byteSize());
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int eventfd(Errno errno, int flags) {
        try {
            return (int) EVENTFD.invokeExact(errno.segment, 0, flags);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static long read(int fd, MemorySegment buffer, long count) {
        try {
            return (long) READ.invokeExact(fd, buffer, count);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int close(int fd) {
        try {
            return (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /** The system's message for {@code errno} ("Connection reset by peer"), as the JDK's exceptions carry it. */
    @SuppressWarnings("restricted") // strerror returns a NUL-terminated string
    static String strerror(int errno) {
        try {
            MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
            return text.reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /** strerror-like text for an errno. */
    static String describe(int errno) {
        return switch (errno) {
            case 1 -> "EPERM (operation not permitted: io_uring is disabled here)";
            case 12 -> "ENOMEM (out of memory, or the locked-memory limit is too low)";
            case 22 -> "EINVAL (this kernel does not support what was asked)";
            case 38 -> "ENOSYS (no io_uring in this kernel)";
            default -> "errno " + errno;
        };
    }
}
