package io.jasyncio.sync;

/** Thrown when {@link Queue#getNowait} finds the queue empty (asyncio's {@code QueueEmpty}). */
public class QueueEmptyException extends RuntimeException {
    public QueueEmptyException() {
        super();
    }

    public QueueEmptyException(String message) {
        super(message);
    }
}
