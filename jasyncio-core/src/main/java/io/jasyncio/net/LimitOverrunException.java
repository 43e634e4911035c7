package io.jasyncio.net;

/**
 * A line or chunk outgrew the reader's limit before its separator was found (asyncio's
 * {@code LimitOverrunError}); {@link #consumed()} is how many bytes must be consumed to get past
 * the check. The bytes stay in the buffer.
 */
public class LimitOverrunException extends java.io.IOException {
    /** How many bytes are to be consumed. */
    private final int consumed;

    /** The limit was reached; {@code consumed} bytes are to be consumed (left in the buffer). */
    public LimitOverrunException(String message, int consumed) {
        super(message);
        this.consumed = consumed;
    }

    /** How many bytes are to be consumed: where the separator starts, or how far the search got. */
    public int consumed() {
        return consumed;
    }
}
