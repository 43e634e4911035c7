package io.jasyncio.uring;

import java.util.Locale;

/**
 * When the kernel runs a ring's task work (the second half of a request: a receive's copy once
 * its socket has data, a poll's completion), chosen at {@code io_uring_setup} by
 * {@code -Djasyncio.uring.taskrun=off|coop|defer} (default {@link #DEFAULT}). On loopback a
 * receive run the instant data arrives contends for the socket's lock with the sender's softirq
 * on the other CPU; the later modes run it when the loop next enters the kernel instead.
 * A kernel that refuses a mode's flags ({@code EINVAL}) gets the next weaker one.
 */
enum TaskRunMode {
    /** The kernel's default: task work interrupts the loop's thread as soon as it is queued. */
    OFF(0),
    /** {@code IORING_SETUP_COOP_TASKRUN | TASKRUN_FLAG} (5.19+): no interrupt; run at the loop's next entry. */
    COOP(IoUring.SETUP_COOP_TASKRUN | IoUring.SETUP_TASKRUN_FLAG),
    /**
     * {@code IORING_SETUP_SINGLE_ISSUER | DEFER_TASKRUN | TASKRUN_FLAG} (6.1+): task work runs only
     * inside the loop's waiting {@code io_uring_enter}. The ring then belongs to one thread for
     * its life; it is made disabled ({@code IORING_SETUP_R_DISABLED}) and enabled by the first
     * thread that runs the loop, and entering it from another thread is refused.
     */
    DEFER(IoUring.SETUP_SINGLE_ISSUER | IoUring.SETUP_DEFER_TASKRUN | IoUring.SETUP_TASKRUN_FLAG
            | IoUring.SETUP_R_DISABLED);

    static final String PROPERTY = "jasyncio.uring.taskrun";
    static final TaskRunMode DEFAULT = COOP;

    final int setupFlags;

    TaskRunMode(int setupFlags) {
        this.setupFlags = setupFlags;
    }

    /** The mode the kernel falls back to when it refuses this one's flags, or null. */
    TaskRunMode weaker() {
        return this == OFF ? null : values()[ordinal() - 1];
    }

    /** Whether the ring belongs to the first thread that enters it. */
    boolean bindsThread() {
        return this == DEFER;
    }

    static TaskRunMode configured() {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.isBlank()) {
            return DEFAULT;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("-D" + PROPERTY + "=" + value + ": expected off, coop or defer", e);
        }
    }
}
