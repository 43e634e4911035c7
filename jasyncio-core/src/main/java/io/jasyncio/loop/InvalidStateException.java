package io.jasyncio.loop;

/** A future was used in a state that does not allow it (asyncio's {@code InvalidStateError}). */
public class InvalidStateException extends IllegalStateException {
    /** An operation refused in the future's present state, saying why. */
    public InvalidStateException(String message) {
        super(message);
    }
}
