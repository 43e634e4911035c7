package io.jasyncio.net;

/**
 * How {@link Network#createServer} sets up its listening sockets (asyncio's keyword arguments,
 * with asyncio's defaults: backlog 100, SO_REUSEADDR on, SO_REUSEPORT off, start serving at once,
 * no TLS).
 */
public record ServerOptions(int backlog, boolean reuseAddress, boolean reusePort, boolean startServing, TlsOptions tls) {
    /** asyncio's defaults: backlog 100, SO_REUSEADDR on, SO_REUSEPORT off, serving at once, no TLS. */
    public static ServerOptions defaults() {
        return new ServerOptions(100, true, false, true, null);
    }

    /**
     * These options with a listen backlog of {@code value} (also how many connections one readiness
     * accepts).
     */
    public ServerOptions withBacklog(int value) {
        return new ServerOptions(value, reuseAddress, reusePort, startServing, tls);
    }

    /** These options with {@code SO_REUSEADDR} on or off. */
    public ServerOptions withReuseAddress(boolean value) {
        return new ServerOptions(backlog, value, reusePort, startServing, tls);
    }

    /** These options with {@code SO_REUSEPORT} on or off. */
    public ServerOptions withReusePort(boolean value) {
        return new ServerOptions(backlog, reuseAddress, value, startServing, tls);
    }

    /** These options, accepting at once ({@code true}) or only after {@code startServing()}. */
    public ServerOptions withStartServing(boolean value) {
        return new ServerOptions(backlog, reuseAddress, reusePort, value, tls);
    }

    /** These options over TLS as {@code value} says (null: plain). */
    public ServerOptions withTls(TlsOptions value) {
        return new ServerOptions(backlog, reuseAddress, reusePort, startServing, value);
    }
}
