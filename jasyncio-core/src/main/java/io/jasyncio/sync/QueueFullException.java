package io.jasyncio.sync;

/** Thrown when {@link Queue#putNowait} finds the queue full (asyncio's {@code QueueFull}). */
public class QueueFullException extends RuntimeException {
    /** The queue is full. */
    public QueueFullException() {
        super();
    }

    /** The queue is full, saying which. */
    public QueueFullException(String message) {
        super(message);
    }
}
