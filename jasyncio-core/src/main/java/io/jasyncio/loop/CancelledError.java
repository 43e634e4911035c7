package io.jasyncio.loop;

/**
 * Thrown into a task at an await when the task (or what it awaits) was cancelled.
 *
 * <p>Like asyncio's {@code CancelledError} (a {@code BaseException} since Python 3.8), this is
 * deliberately not an {@link Exception}: an ordinary {@code catch (Exception e)} must not swallow
 * a cancellation. Catch it by name when you mean to, and re-throw it unless you also call
 * {@code uncancel()}.
 */
public class CancelledError extends Error {
    /** A cancellation without a message. */
    public CancelledError() {
        super();
    }

    /** A cancellation carrying {@code message} (asyncio's {@code cancel(msg)}). */
    public CancelledError(String message) {
        super(message);
    }

    /** A cancellation carrying {@code message}, or none when it is null (asyncio's {@code cancel(msg=None)}). */
    public static CancelledError of(String message) {
        return message == null ? new CancelledError() : new CancelledError(message);
    }

    /** A cancellation carrying {@code message}, caused by {@code cause}. */
    public CancelledError(String message, Throwable cause) {
        super(message, cause);
    }
}
