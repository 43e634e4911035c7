package io.jasyncio.task;

/**
 * What {@code Asyncio.run} / {@link Runner#run} throws when SIGINT (Ctrl-C) cancelled the main
 * task, as asyncio raises Python's {@code KeyboardInterrupt}. An {@link Error}, like
 * {@link io.jasyncio.loop.CancelledError}: {@code catch (Exception e)} does not swallow it.
 */
public class KeyboardInterrupt extends Error {
    /** Ctrl-C reached the main task. */
    public KeyboardInterrupt() {
        super("interrupted by SIGINT");
    }
}
