package io.jasyncio.sync;

/** Thrown when a task waits on a {@link Barrier} that is aborted or reset (asyncio's {@code BrokenBarrierError}). */
public class BrokenBarrierException extends RuntimeException {
    public BrokenBarrierException() {
        super();
    }

    public BrokenBarrierException(String message) {
        super(message);
    }
}
