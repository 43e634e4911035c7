package io.jasyncio.task;

/**
 * A deadline passed: asyncio's {@code TimeoutError}. Raised by {@link Timeout} scopes, by
 * {@code waitFor} and by {@code asCompleted}, only for the cancellation the deadline itself
 * caused; a cancellation from elsewhere stays a {@link io.jasyncio.loop.CancelledError}.
 *
 * <p>Unchecked, unlike {@link java.util.concurrent.TimeoutException}: a timeout scope may wrap
 * any body, and the body's callers should not be forced to declare it.
 */
public class TimeoutException extends RuntimeException {
    /** A deadline passed. */
    public TimeoutException() {
        super();
    }

    /** A deadline passed, saying which. */
    public TimeoutException(String message) {
        super(message);
    }

    /** A timeout that replaced {@code cause}, the cancellation it delivered to the body. */
    public TimeoutException(Throwable cause) {
        super(null, cause);
    }
}
