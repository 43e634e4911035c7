package io.jasyncio.sync;

/** Thrown when putting on, or getting from, a queue that was {@linkplain Queue#shutdown shut down} (asyncio 3.13's {@code QueueShutDown}). */
public class QueueShutDownException extends RuntimeException {
    public QueueShutDownException() {
        super();
    }

    public QueueShutDownException(String message) {
        super(message);
    }
}
