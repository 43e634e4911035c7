package io.jasyncio.net;

import java.net.SocketException;

/** asyncio's {@code ConnectionResetError}: the connection went away under a pending operation. */
public class ConnectionResetException extends SocketException {
    public ConnectionResetException(String message) {
        super(message);
    }
}
