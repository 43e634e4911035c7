package io.jasyncio.net;

import java.io.EOFException;

/**
 * The stream ended before the requested bytes arrived (asyncio's {@code IncompleteReadError}):
 * {@link #partial()} holds what was read, {@link #expected()} how many were asked for (null when
 * reading up to a separator).
 */
public class IncompleteReadException extends EOFException {
    private final byte[] partial;
    private final Integer expected;

    public IncompleteReadException(byte[] partial, Integer expected) {
        super(partial.length + " bytes read on a total of " + (expected == null ? "None" : expected) + " expected bytes");
        this.partial = partial;
        this.expected = expected;
    }

    public byte[] partial() {
        return partial;
    }

    public Integer expected() {
        return expected;
    }
}
