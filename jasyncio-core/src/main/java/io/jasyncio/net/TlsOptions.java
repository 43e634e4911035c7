package io.jasyncio.net;

import javax.net.ssl.SSLContext;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * TLS for a connection or a server: the {@link SSLContext} (its trust and key managers decide
 * which certificates are accepted and presented), the name the client checks the server's
 * certificate against (null: the host connected to), and asyncio's timeouts: 60 s for the
 * handshake, 30 s for the shutdown. Certificate and host-name verification are always on for
 * clients; to trust a private certificate, build the context with a trust manager that knows it.
 */
public record TlsOptions(SSLContext context, String serverHostname, double handshakeTimeout, double shutdownTimeout) {
    public static final double DEFAULT_HANDSHAKE_TIMEOUT = 60.0;
    public static final double DEFAULT_SHUTDOWN_TIMEOUT = 30.0;

    public TlsOptions {
        Objects.requireNonNull(context, "context");
        if (!(handshakeTimeout > 0)) {
            throw new IllegalArgumentException("ssl_handshake_timeout should be a positive number, got " + handshakeTimeout);
        }
        if (!(shutdownTimeout > 0)) {
            throw new IllegalArgumentException("ssl_shutdown_timeout should be a positive number, got " + shutdownTimeout);
        }
    }

    public static TlsOptions of(SSLContext context) {
        return new TlsOptions(context, null, DEFAULT_HANDSHAKE_TIMEOUT, DEFAULT_SHUTDOWN_TIMEOUT);
    }

    /** The JDK's default context: the system's trusted certificate authorities. */
    public static TlsOptions systemDefault() {
        try {
            return of(SSLContext.getDefault());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no default TLS context", e);
        }
    }

    public TlsOptions withServerHostname(String name) {
        return new TlsOptions(context, name, handshakeTimeout, shutdownTimeout);
    }

    public TlsOptions withHandshakeTimeout(double seconds) {
        return new TlsOptions(context, serverHostname, seconds, shutdownTimeout);
    }

    public TlsOptions withShutdownTimeout(double seconds) {
        return new TlsOptions(context, serverHostname, handshakeTimeout, seconds);
    }
}
