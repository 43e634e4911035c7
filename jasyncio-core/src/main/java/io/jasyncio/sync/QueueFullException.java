package io.jasyncio.sync;

/** Thrown when {@link Queue#putNowait} finds the queue full (asyncio's {@code QueueFull}). */
public class QueueFullException extends RuntimeException {
    public QueueFullException() {
        super();
    }

    public QueueFullException(String message) {
        super(message);
    }
}
