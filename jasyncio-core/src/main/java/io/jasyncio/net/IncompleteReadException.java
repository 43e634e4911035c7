package io.jasyncio.net;

import java.io.EOFException;

/**
 * The stream ended before the requested bytes arrived (asyncio's {@code IncompleteReadError}):
 * {@link #partial()} holds what was read, {@link #expected()} how many were asked for (null when
 * reading up to a separator).
 */
public class IncompleteReadException extends EOFException {
    /** The bytes read before EOF. */
    private final byte[] partial;
    /** How many bytes were asked for, or null for a read up to a separator. */
    private final Integer expected;

    /** EOF after {@code partial}, when {@code expected} bytes (null: up to a separator) were asked for. */
    public IncompleteReadException(byte[] partial, Integer expected) {
        super(partial.length + " bytes read on a total of " + (expected == null ? "None" : expected) + " expected bytes");
        this.partial = partial;
        this.expected = expected;
    }

    /** The bytes read before EOF. */
    public byte[] partial() {
        return partial;
    }

    /** How many bytes were asked for, or null for a read up to a separator. */
    public Integer expected() {
        return expected;
    }
}
