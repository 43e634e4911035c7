package io.jasyncio.sync;

/** Thrown when putting on, or getting from, a queue that was {@linkplain Queue#shutdown shut down} (asyncio 3.13's {@code QueueShutDown}). */
public class QueueShutDownException extends RuntimeException {
    /** The queue was shut down. */
    public QueueShutDownException() {
        super();
    }

    /** The queue was shut down, saying which. */
    public QueueShutDownException(String message) {
        super(message);
    }
}
