package io.jasyncio.nativeio.linux;

import io.jasyncio.nativeio.LibC;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Wakes a loop sleeping in the kernel by writing an eventfd it watches, deduplicated by a flag:
 * only the first {@link #wakeup()} after the loop last saw the eventfd ({@link #rearm()}) pays for
 * a syscall, so a busy producer costs one CAS. Used by the epoll, io_uring and poll pollers; the
 * poller owns the eventfd and closes it once {@link #close()} said so.
 */
public final class EventFdWakeup {
    private static final int IDLE = 0;
    private static final int PENDING = 1;
    private static final int CLOSED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(EventFdWakeup.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int eventFd;
    /** The 8-byte counter increment a wake-up writes; never changed, so any thread may use it. */
    private final MemorySegment increment;
    private final Object writeLock = new Object();
    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    /** Wake-ups for {@code eventFd}; the increment lives in {@code arena}, which must outlive {@link #close()}. */
    public EventFdWakeup(int eventFd, Arena arena) {
        this.eventFd = eventFd;
        this.increment = arena.allocate(JAVA_LONG);
        increment.set(JAVA_LONG, 0, 1L);
    }

    /** Any thread: makes the eventfd readable unless a wake-up is already on its way (or closed). */
    public void wakeup() {
        if (!STATE.compareAndSet(this, IDLE, PENDING)) {
            return;
        }
        synchronized (writeLock) { // close() must not let the eventfd go mid-write
            if (state != CLOSED) {
                LibC.write(eventFd, increment, 8); // EAGAIN only if 2^64 wake-ups were pending
            }
        }
    }

    /**
     * The loop saw the eventfd: later wake-ups must write again. A waker that saw PENDING until
     * now queued its work before looking, and the loop drains that queue after this select, so
     * no wake-up is lost.
     */
    public void rearm() {
        STATE.compareAndSet(this, PENDING, IDLE);
    }

    /** Ends wake-ups; true on the first call only, after which no write is under way and the eventfd may be closed. */
    public boolean close() {
        synchronized (writeLock) {
            if (state == CLOSED) {
                return false;
            }
            STATE.setVolatile(this, CLOSED);
            return true;
        }
    }
}
