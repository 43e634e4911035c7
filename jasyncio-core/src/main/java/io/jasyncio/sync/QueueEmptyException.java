package io.jasyncio.sync;

/** Thrown when {@link Queue#getNowait} finds the queue empty (asyncio's {@code QueueEmpty}). */
public class QueueEmptyException extends RuntimeException {
    /** The queue is empty. */
    public QueueEmptyException() {
        super();
    }

    /** The queue is empty, saying which. */
    public QueueEmptyException(String message) {
        super(message);
    }
}
