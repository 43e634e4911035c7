package io.jasyncio.net;

/**
 * A line or chunk outgrew the reader's limit before its separator was found (asyncio's
 * {@code LimitOverrunError}); {@link #consumed()} is how many bytes must be consumed to get past
 * the check. The bytes stay in the buffer.
 */
public class LimitOverrunException extends java.io.IOException {
    private final int consumed;

    public LimitOverrunException(String message, int consumed) {
        super(message);
        this.consumed = consumed;
    }

    public int consumed() {
        return consumed;
    }
}
