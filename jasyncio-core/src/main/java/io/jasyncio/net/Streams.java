package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * asyncio's stream functions ({@code open_connection}, {@code start_server}, and their Unix
 * variants) for a given loop; {@link io.jasyncio.Asyncio} offers them on the running loop.
 */
public final class Streams {
    private Streams() {
    }

    /**
     * Coroutine: a (reader, writer) pair connected to {@code host:port} as {@code options} say
     * (TLS with {@code ConnectOptions.defaults().withTls(tls)}, happy eyeballs, local address,
     * timeout: see {@link ConnectOptions}); null is {@link ConnectOptions#defaults()}, a plain
     * connection. The one form, so {@code openConnection(loop, host, port, null, limit)} is not
     * ambiguous.
     */
    public static StreamConnection openConnection(EventLoop loop, String host, int port, ConnectOptions options,
                                                  int limit) throws IOException {
        StreamReader reader = new StreamReader(loop, limit);
        Connection<StreamReaderProtocol> c = Network.createConnection(loop,
                () -> new StreamReaderProtocol(loop, reader, null), host, port,
                options == null ? ConnectOptions.defaults() : options);
        return new StreamConnection(reader, new StreamWriter(c.transport(), c.protocol(), reader, loop));
    }

    /** Coroutine: a server running {@code callback} as a task for each connection. */
    public static Server startServer(EventLoop loop, ClientConnectedCallback callback, String host, int port,
                                     ServerOptions options, int limit) throws IOException {
        return Network.createServer(loop,
                () -> new StreamReaderProtocol(loop, new StreamReader(loop, limit), callback),
                host == null ? null : List.of(host), port, options);
    }

    /**
     * Coroutine: a (reader, writer) pair connected to the Unix socket at {@code path} (over TLS when
     * {@code tls} is not null).
     */
    public static StreamConnection openUnixConnection(EventLoop loop, Path path, TlsOptions tls, int limit)
            throws IOException {
        StreamReader reader = new StreamReader(loop, limit);
        Connection<StreamReaderProtocol> c = Network.createUnixConnection(loop,
                () -> new StreamReaderProtocol(loop, reader, null), path, tls);
        return new StreamConnection(reader, new StreamWriter(c.transport(), c.protocol(), reader, loop));
    }

    /**
     * Coroutine: a server on the Unix socket at {@code path}, running {@code callback} as a task for
     * each connection.
     */
    public static Server startUnixServer(EventLoop loop, ClientConnectedCallback callback, Path path,
                                         ServerOptions options, int limit) throws IOException {
        return Network.createUnixServer(loop,
                () -> new StreamReaderProtocol(loop, new StreamReader(loop, limit), callback), path, options);
    }
}
