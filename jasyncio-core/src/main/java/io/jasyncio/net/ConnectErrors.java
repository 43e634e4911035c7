package io.jasyncio.net;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.SocketAddress;
import java.net.SocketException;

/**
 * A failed connect names the address it tried, as asyncio's "Connect call failed ('127.0.0.1', 1)":
 * the JDK says only "Connection refused". The error keeps its type (a {@link ConnectException}
 * stays one, so {@code catch (ConnectException e)} works) and has the JDK's error as its cause.
 */
final class ConnectErrors {
    private ConnectErrors() {
    }

    /** {@code e} again, its message followed by {@code address} ("Connection refused: 127.0.0.1:1"). */
    static IOException naming(IOException e, SocketAddress address) {
        String reason = String.valueOf(e.getMessage());
        String message = reason + ": " + describe(address);
        IOException named;
        if (e instanceof ConnectException) {
            named = new ConnectException(message);
        } else if (e instanceof NoRouteToHostException) {
            named = new NoRouteToHostException(message);
        } else if (e.getClass() == SocketException.class) {
            named = new SocketException(message);
        } else {
            return e; // a type we cannot remake: as it is, rather than a different type
        }
        named.initCause(e);
        return named;
    }

    /** The OS's reason for a failure {@link #naming} made ("Connection refused"), else the message. */
    static String reason(Throwable e) {
        if (e.getCause() instanceof IOException original && original.getMessage() != null
                && String.valueOf(e.getMessage()).startsWith(original.getMessage() + ": ")) {
            return original.getMessage();
        }
        return String.valueOf(e.getMessage());
    }

    /** {@code host:port} ({@code [v6]:port}), or a Unix socket's path. */
    static String describe(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            String host = inet.getAddress() != null ? inet.getAddress().getHostAddress() : inet.getHostString();
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }
}
