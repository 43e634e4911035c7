package io.jasyncio.subprocess;

import io.jasyncio.net.BaseTransport;
import io.jasyncio.net.Transport;

/**
 * A running child and its pipes (asyncio's {@code SubprocessTransport}). {@link #close()} closes
 * the pipes and kills the child if it still runs.
 */
public interface SubprocessTransport extends BaseTransport {
    /** The child's process id. */
    long getPid();

    /**
     * Null while the child runs; then its exit status, or {@code -N} when signal N killed it (see
     * {@link Subprocess#returncode()} for how far that can be told on the JDK).
     */
    Integer getReturncode();

    /**
     * The transport of the pipe to the child's {@code fd} (0: stdin, a write pipe; 1, 2: stdout,
     * stderr, read pipes), or null when that stream is not piped.
     */
    Transport getPipeTransport(int fd);

    /** Sends signal {@code signal} (a POSIX number, e.g. {@link Signals#SIGINT}); nothing once the child exited. */
    void sendSignal(int signal);

    /** SIGTERM. */
    void terminate();

    /** SIGKILL. */
    void kill();

    /** Coroutine: returns the return code once the child exited (at once if it did). */
    int waitForExit();
}
