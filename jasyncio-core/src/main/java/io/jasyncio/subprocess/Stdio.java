package io.jasyncio.subprocess;

/** Where one of a child's standard streams goes (asyncio's {@code PIPE}, {@code DEVNULL}, {@code None}, {@code STDOUT}). */
public enum Stdio {
    /** A pipe to the parent: a stream on the {@link Subprocess}, a pipe transport on the {@link SubprocessTransport}. */
    PIPE,
    /** {@code /dev/null}. */
    DEVNULL,
    /** The parent's own stream (asyncio's default, {@code None}). */
    INHERIT,
    /** For stderr only: into the same place as stdout. */
    STDOUT
}
