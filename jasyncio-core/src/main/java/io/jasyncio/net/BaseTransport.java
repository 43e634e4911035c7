package io.jasyncio.net;

/** What every transport offers (asyncio's {@code BaseTransport}). */
public interface BaseTransport {
    /**
     * Closes the transport: buffered data is still sent, then the protocol's
     * {@code connectionLost(null)} is called (soon, never inline). Idempotent.
     */
    void close();

    /** True once {@link #close()} (or an abort, or a fatal error) began. */
    boolean isClosing();

    /**
     * Optional information: {@code "peername"}, {@code "sockname"} (SocketAddress),
     * {@code "socket"} (the channel), and over TLS {@code "sslcontext"}, {@code "peercert"}
     * (X509Certificate), {@code "cipher"}, {@code "ssl_object"} (the SSLEngine). Null when unknown.
     */
    Object getExtraInfo(String name);

    /** The protocol receiving this transport's events. */
    BaseProtocol getProtocol();

    /** Switches the protocol receiving events (as asyncio's set_protocol). */
    void setProtocol(BaseProtocol protocol);
}
