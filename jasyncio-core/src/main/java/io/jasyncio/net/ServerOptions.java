package io.jasyncio.net;

/**
 * How {@link Network#createServer} sets up its listening sockets (asyncio's keyword arguments,
 * with asyncio's defaults: backlog 100, SO_REUSEADDR on, SO_REUSEPORT off, start serving at once,
 * no TLS).
 */
public record ServerOptions(int backlog, boolean reuseAddress, boolean reusePort, boolean startServing, TlsOptions tls) {
    public static ServerOptions defaults() {
        return new ServerOptions(100, true, false, true, null);
    }

    public ServerOptions withBacklog(int value) {
        return new ServerOptions(value, reuseAddress, reusePort, startServing, tls);
    }

    public ServerOptions withReuseAddress(boolean value) {
        return new ServerOptions(backlog, value, reusePort, startServing, tls);
    }

    public ServerOptions withReusePort(boolean value) {
        return new ServerOptions(backlog, reuseAddress, value, startServing, tls);
    }

    public ServerOptions withStartServing(boolean value) {
        return new ServerOptions(backlog, reuseAddress, reusePort, value, tls);
    }

    public ServerOptions withTls(TlsOptions value) {
        return new ServerOptions(backlog, reuseAddress, reusePort, startServing, value);
    }
}
