package io.jasyncio.sync;

/** Thrown when a task waits on a {@link Barrier} that is aborted or reset (asyncio's {@code BrokenBarrierError}). */
public class BrokenBarrierException extends RuntimeException {
    /** The barrier is broken. */
    public BrokenBarrierException() {
        super();
    }

    /** The barrier is broken, saying how. */
    public BrokenBarrierException(String message) {
        super(message);
    }
}
