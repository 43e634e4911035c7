package io.jasyncio.net;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * TLS for a connection or a server: the {@link SSLContext} (its trust and key managers decide
 * which certificates are accepted and presented), the name the client checks the server's
 * certificate against (null: the host connected to), asyncio's timeouts (60 s for the handshake,
 * 30 s for the shutdown), the ALPN protocols offered (a client's, in preference order) or
 * accepted (a server's, the first it shares with the client wins; the choice is the transport's
 * {@code getExtraInfo("alpn_protocol")}), whether a server asks for a client certificate
 * ({@link ClientAuth}; a client presents one when its context has a key manager), and a hook
 * that sees each {@link SSLEngine} last, for what these options do not cover. Certificate and
 * host-name verification are always on for clients; to trust a private certificate, build the
 * context with a trust manager that knows it.
 */
public record TlsOptions(SSLContext context, String serverHostname, double handshakeTimeout, double shutdownTimeout,
                         List<String> alpnProtocols, ClientAuth clientAuth, Consumer<SSLEngine> engineConfigurator) {
    public static final double DEFAULT_HANDSHAKE_TIMEOUT = 60.0;
    public static final double DEFAULT_SHUTDOWN_TIMEOUT = 30.0;

    /** Whether a server asks the client for a certificate (asyncio's {@code verify_mode} on a server context). */
    public enum ClientAuth {
        /** Asks for none (CERT_NONE, the default). */
        NONE,
        /** Asks for one; a client without one is still accepted (CERT_OPTIONAL). */
        REQUESTED,
        /** Asks for one and ends the handshake of a client without a valid one (CERT_REQUIRED). */
        REQUIRED
    }

    /** Options as given; {@link #of(SSLContext)} and the {@code with...} methods are the usual way. */
    public TlsOptions {
        Objects.requireNonNull(context, "context");
        if (!(handshakeTimeout > 0)) {
            throw new IllegalArgumentException("ssl_handshake_timeout should be a positive number, got " + handshakeTimeout);
        }
        if (!(shutdownTimeout > 0)) {
            throw new IllegalArgumentException("ssl_shutdown_timeout should be a positive number, got " + shutdownTimeout);
        }
        alpnProtocols = List.copyOf(Objects.requireNonNull(alpnProtocols, "alpnProtocols"));
        for (String p : alpnProtocols) {
            if (p.isEmpty() || p.length() > 255) {
                throw new IllegalArgumentException("an ALPN protocol name is 1 to 255 bytes, got '" + p + "'");
            }
        }
        Objects.requireNonNull(clientAuth, "clientAuth");
        Objects.requireNonNull(engineConfigurator, "engineConfigurator");
    }

    /** Options with asyncio's four settings, and no ALPN, no client authentication, no engine hook. */
    public TlsOptions(SSLContext context, String serverHostname, double handshakeTimeout, double shutdownTimeout) {
        this(context, serverHostname, handshakeTimeout, shutdownTimeout, List.of(), ClientAuth.NONE, engine -> { });
    }

    /** TLS with {@code context} and asyncio's timeouts (60 s handshake, 30 s shutdown). */
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

    /** These options, checking the server's certificate against {@code name} (and sending it as SNI). */
    public TlsOptions withServerHostname(String name) {
        return new TlsOptions(context, name, handshakeTimeout, shutdownTimeout, alpnProtocols, clientAuth, engineConfigurator);
    }

    /** These options with a handshake timeout of {@code seconds}. */
    public TlsOptions withHandshakeTimeout(double seconds) {
        return new TlsOptions(context, serverHostname, seconds, shutdownTimeout, alpnProtocols, clientAuth, engineConfigurator);
    }

    /** These options with a shutdown timeout of {@code seconds}. */
    public TlsOptions withShutdownTimeout(double seconds) {
        return new TlsOptions(context, serverHostname, handshakeTimeout, seconds, alpnProtocols, clientAuth, engineConfigurator);
    }

    /** ALPN (asyncio: {@code SSLContext.set_alpn_protocols}): e.g. {@code "h2", "http/1.1"}. */
    public TlsOptions withAlpnProtocols(String... protocols) {
        return new TlsOptions(context, serverHostname, handshakeTimeout, shutdownTimeout, List.of(protocols), clientAuth,
                engineConfigurator);
    }

    /** These options, asking clients for certificates as {@code value} says (a server's setting). */
    public TlsOptions withClientAuth(ClientAuth value) {
        return new TlsOptions(context, serverHostname, handshakeTimeout, shutdownTimeout, alpnProtocols, value,
                engineConfigurator);
    }

    /** Runs {@code configurator} on each new engine after these options are applied (cipher suites, protocols, ...). */
    public TlsOptions withEngineConfigurator(Consumer<SSLEngine> configurator) {
        return new TlsOptions(context, serverHostname, handshakeTimeout, shutdownTimeout, alpnProtocols, clientAuth,
                configurator);
    }
}
