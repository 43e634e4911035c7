package io.jasyncio.net;

import java.io.IOException;
import java.net.SocketException;

/**
 * asyncio's {@code ConnectionResetError}: the peer reset the connection, or it went away under a
 * pending operation. Transports raise this one type for a reset whichever path saw it (a read,
 * a write), so code can tell a reset, a normal end for many services, from a failure.
 */
public class ConnectionResetException extends SocketException {
    /** A reset connection, saying which. */
    public ConnectionResetException(String message) {
        super(message);
    }

    /** {@code exc} as a ConnectionResetException when it reports a reset (the JDK keeps only the message), else itself. */
    static Throwable ifReset(Throwable exc) {
        return exc instanceof IOException io ? ifReset(io) : exc;
    }

    /** As {@link #ifReset(Throwable)}, for a read or write that throws it on. */
    static IOException ifReset(IOException exc) {
        if (!(exc instanceof ConnectionResetException) && String.valueOf(exc.getMessage()).startsWith("Connection reset")) {
            ConnectionResetException reset = new ConnectionResetException(exc.getMessage());
            reset.initCause(exc);
            return reset;
        }
        return exc;
    }
}
