package io.jasyncio.net;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.spi.LoopContract;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import io.jasyncio.net.spi.Proactor;
import io.jasyncio.util.Throwables;
import io.jasyncio.task.ThrowingCoroutine;
import io.jasyncio.task.Tasks;
import io.jasyncio.task.Timeout;

import static io.jasyncio.task.Tasks.await;

/**
 * asyncio's loop-level networking ({@code loop.create_connection}, {@code create_server}, ...)
 * as static coroutines taking the loop: each suspends the calling task until the connection or
 * server is ready, and throws what went wrong (the real {@link IOException},
 * {@link javax.net.ssl.SSLException}, ...).
 */
public final class Network {
    private Network() {
    }

    // ---- connections ------------------------------------------------------------------------

    /** Coroutine: connects to {@code host:port} (each resolved address in turn) with a new protocol. */
    public static <P extends BaseProtocol> Connection<P> createConnection(EventLoop loop, Supplier<P> protocolFactory,
                                                                         String host, int port) throws IOException {
        return createConnection(loop, protocolFactory, host, port, ConnectOptions.defaults());
    }

    /**
     * Coroutine: connects to {@code host:port} as {@code options} say (TLS, happy eyeballs, local
     * address, timeout; see {@link ConnectOptions}). When every address fails, the error names
     * them all: asyncio's rule (one error when all say the same, else "Multiple exceptions", or
     * an {@link io.jasyncio.task.ExceptionGroup} with {@code allErrors}). Null options: a plain
     * connection with the defaults; for TLS, {@code ConnectOptions.defaults().withTls(tls)}.
     */
    public static <P extends BaseProtocol> Connection<P> createConnection(EventLoop loop, Supplier<P> protocolFactory,
                                                                         String host, int port, ConnectOptions orNull)
            throws IOException {
        ConnectOptions options = orNull == null ? ConnectOptions.defaults() : orNull;
        return withTimeout(options, () -> {
            List<InetSocketAddress> addresses = resolve(loop, host, port);
            SocketChannel connected = Connector.connect(loop, addresses, options);
            TlsOptions tls = options.tls();
            String serverHostname = tls == null ? null : tls.serverHostname() != null ? tls.serverHostname() : host;
            return connectionOver(loop, connected, protocolFactory, tls, false, serverHostname);
        });
    }

    /**
     * Coroutine: connects to one of {@code addresses} (already resolved, in the order given before
     * any interleaving) as {@code options} say. For TLS, set the name to check in
     * {@link TlsOptions#withServerHostname}. Null options: a plain connection with the defaults.
     */
    public static <P extends BaseProtocol> Connection<P> createConnection(EventLoop loop, Supplier<P> protocolFactory,
                                                                         List<InetSocketAddress> addresses,
                                                                         ConnectOptions orNull) throws IOException {
        ConnectOptions options = orNull == null ? ConnectOptions.defaults() : orNull;
        return withTimeout(options, () -> {
            SocketChannel connected = Connector.connect(loop, addresses, options);
            TlsOptions tls = options.tls();
            return connectionOver(loop, connected, protocolFactory, tls, false, tls == null ? null : tls.serverHostname());
        });
    }

    /** Runs {@code connect} under the options' overall timeout, if they set one. */
    private static <T> T withTimeout(ConnectOptions options, ThrowingCoroutine<T, IOException> connect) throws IOException {
        if (!Double.isNaN(options.timeout())) {
            return Timeout.after(options.timeout()).run(connect);
        }
        return connect.run();
    }

    /** Coroutine: wraps an already connected channel (asyncio's create_connection(sock=...)). */
    public static <P extends BaseProtocol> Connection<P> createConnection(EventLoop loop, Supplier<P> protocolFactory,
                                                                         SocketChannel channel, TlsOptions tls) throws IOException {
        channel.configureBlocking(false);
        return connectionOver(loop, channel, protocolFactory, tls, false, tls == null ? null : tls.serverHostname());
    }

    /** Coroutine: wraps a channel accepted elsewhere, as the server side (asyncio's connect_accepted_socket). */
    public static <P extends BaseProtocol> Connection<P> connectAccepted(EventLoop loop, Supplier<P> protocolFactory,
                                                                        SocketChannel channel, TlsOptions tls) throws IOException {
        channel.configureBlocking(false);
        return connectionOver(loop, channel, protocolFactory, tls, true, null);
    }

    /** Coroutine: connects to the Unix domain socket at {@code path}. */
    public static <P extends BaseProtocol> Connection<P> createUnixConnection(EventLoop loop, Supplier<P> protocolFactory,
                                                                             Path path, TlsOptions tls) throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.configureBlocking(false);
            Sockets.sockConnect(loop, channel, UnixDomainSocketAddress.of(path));
        } catch (Throwable t) {
            channel.close();
            throw t;
        }
        return connectionOver(loop, channel, protocolFactory, tls, false, tls == null ? null : tls.serverHostname());
    }

    private static <P extends BaseProtocol> Connection<P> connectionOver(EventLoop loop, SocketChannel channel,
                                                                        Supplier<P> protocolFactory, TlsOptions tls,
                                                                        boolean serverSide, String serverHostname) {
        P protocol = protocolFactory.get();
        Future<Void> waiter = loop.createFuture();
        Transport transport = startTransport(loop, channel, protocol, tls, serverSide, serverHostname, null, waiter);
        try {
            await(waiter);
        } catch (Throwable t) {
            transport.close();
            throw t;
        }
        return new Connection<>(transport, protocol);
    }

    /** Makes the transport for a connected channel: plain, or TLS layered as a protocol under {@code protocol}. */
    static Transport startTransport(EventLoop loop, SocketChannel channel, BaseProtocol protocol, TlsOptions tls,
                                    boolean serverSide, String serverHostname, Server server, Future<Void> waiter) {
        if (tls == null) {
            return socketTransport(loop, channel, protocol, waiter, server);
        }
        SslProtocol ssl = new SslProtocol(loop, protocol, tls, serverSide, serverHostname, waiter, true);
        socketTransport(loop, channel, ssl, null, server);
        return ssl.appTransport();
    }

    /**
     * The plain stream transport that suits the loop's backend: by completion when the backend
     * is a {@link Proactor} (io_uring), else on readiness (asyncio's {@code _make_socket_transport},
     * which each loop class overrides). A new kind of stream transport is a line here.
     */
    private static Transport socketTransport(EventLoop loop, SocketChannel channel, BaseProtocol protocol,
                                             Future<Void> waiter, Server server) {
        Proactor proactor = LoopContract.of(loop).backendFeature(Proactor.class);
        return proactor != null ? new ProactorSocketTransport(loop, proactor, channel, protocol, waiter, server)
                : new SocketTransport(loop, channel, protocol, waiter, server);
    }

    static {
        // The transports' classes and their helpers load with this class (before a server accepts or a
        // connection is made), not at the first connection, which may come when no descriptor is left to
        // open their class files (and the failure would stick).
        try {
            MethodHandles.lookup().ensureInitialized(SocketTransport.class);
            MethodHandles.lookup().ensureInitialized(ProactorSocketTransport.class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Coroutine: upgrades a live connection to TLS (asyncio's loop.start_tls): reading pauses, the
     * handshake runs, and the returned transport (the TLS one) takes over; {@code protocol} gets
     * its events from then on. The old transport must not be used any more.
     */
    public static Transport startTls(EventLoop loop, Transport transport, BaseProtocol protocol, TlsOptions tls,
                                     boolean serverSide) {
        Future<Void> waiter = loop.createFuture();
        String hostname = serverSide ? null : tls.serverHostname();
        SslProtocol ssl = new SslProtocol(loop, protocol, tls, serverSide, hostname, waiter, false);
        transport.pauseReading();  // nothing may reach the old protocol meanwhile
        transport.setProtocol(ssl);
        loop.callSoon(() -> ssl.connectionMade(transport));
        loop.callSoon(transport::resumeReading);
        try {
            await(waiter);
        } catch (Throwable t) {
            transport.close();
            throw t;
        }
        return ssl.appTransport();
    }

    // ---- servers ----------------------------------------------------------------------------

    /** Coroutine: a server on {@code host:port} (null host: every interface; port 0: one the system picks). */
    public static Server createServer(EventLoop loop, Supplier<? extends BaseProtocol> protocolFactory,
                                      String host, int port) throws IOException {
        return createServer(loop, protocolFactory, host == null ? null : List.of(host), port, ServerOptions.defaults());
    }

    /** Coroutine: a server listening on every address of every host in {@code hosts}. */
    public static Server createServer(EventLoop loop, Supplier<? extends BaseProtocol> protocolFactory,
                                      List<String> hosts, int port, ServerOptions options) throws IOException {
        List<InetSocketAddress> addresses = new ArrayList<>();
        if (hosts == null || hosts.isEmpty()) {
            addresses.add(new InetSocketAddress(port)); // the wildcard: one dual-stack socket
        } else {
            for (String host : hosts) {
                for (InetSocketAddress a : resolve(loop, host, port)) {
                    if (!addresses.contains(a)) {
                        addresses.add(a);
                    }
                }
            }
        }
        List<ServerSocketChannel> sockets = new ArrayList<>();
        try {
            for (InetSocketAddress address : addresses) {
                ServerSocketChannel s = ServerSocketChannel.open(familyOf(address));
                sockets.add(s);
                if (options.reuseAddress()) {
                    s.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                }
                if (options.reusePort()) {
                    if (!s.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT)) {
                        throw new IllegalArgumentException("reuse_port not supported by socket module");
                    }
                    s.setOption(StandardSocketOptions.SO_REUSEPORT, true);
                }
                try {
                    s.bind(address, options.backlog());
                } catch (IOException e) {
                    throw new IOException("error while attempting to bind on address " + address + ": "
                            + String.valueOf(e.getMessage()).toLowerCase(), e);
                }
                s.configureBlocking(false);
            }
        } catch (Throwable t) {
            for (ServerSocketChannel s : sockets) {
                s.close();
            }
            throw t;
        }
        return startServer(loop, sockets, protocolFactory, options, null);
    }

    /** Coroutine: a server on the Unix domain socket {@code path} (a stale socket file there is replaced). */
    public static Server createUnixServer(EventLoop loop, Supplier<? extends BaseProtocol> protocolFactory,
                                          Path path, ServerOptions options) throws IOException {
        if (Files.exists(path) && Files.readAttributes(path, BasicFileAttributes.class).isOther()) {
            Files.delete(path);  // a socket left by an earlier server, as asyncio's cleanup
        }
        ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            s.bind(UnixDomainSocketAddress.of(path), options.backlog());
            s.configureBlocking(false);
        } catch (Throwable t) {
            s.close();
            throw t;
        }
        return startServer(loop, List.of(s), protocolFactory, options, path);
    }

    private static Server startServer(EventLoop loop, List<ServerSocketChannel> sockets,
                                      Supplier<? extends BaseProtocol> protocolFactory, ServerOptions options, Path unixPath) {
        Server server = new Server(loop, sockets, protocolFactory, options.backlog(), options.tls(), unixPath);
        if (options.startServing()) {
            server.startServing();
            Tasks.yieldNow(); // as asyncio: let the loop turn once, so the server is surely listening
        }
        return server;
    }

    // ---- datagrams --------------------------------------------------------------------------

    /**
     * Coroutine: a datagram endpoint bound to {@code local} (null: any) and, when {@code remote} is
     * not null, connected to it (then only its datagrams arrive and sendto may omit the address).
     */
    public static <P extends DatagramProtocol> DatagramEndpoint<P> createDatagramEndpoint(
            EventLoop loop, Supplier<P> protocolFactory, SocketAddress local, SocketAddress remote, boolean reuseAddress)
            throws IOException {
        ProtocolFamily family = familyOf(local != null ? local : remote);
        DatagramChannel channel = DatagramChannel.open(family);
        try {
            channel.configureBlocking(false);
            if (reuseAddress) {
                channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            }
            if (local != null) {
                channel.bind(local);
            }
            if (remote != null) {
                channel.connect(remote);
            }
        } catch (Throwable t) {
            channel.close();
            throw t;
        }
        P protocol = protocolFactory.get();
        Future<Void> waiter = loop.createFuture();
        DatagramSocketTransport transport = new DatagramSocketTransport(loop, channel, protocol, remote, waiter);
        try {
            await(waiter);
        } catch (Throwable t) {
            transport.close();
            throw t;
        }
        return new DatagramEndpoint<>(transport, protocol);
    }

    // ---- names ------------------------------------------------------------------------------

    /**
     * Coroutine: the addresses of {@code host}. A literal address costs nothing; a name is looked
     * up on the default executor, never on the loop thread (asyncio's getaddrinfo).
     */
    public static List<InetSocketAddress> resolve(EventLoop loop, String host, int port) throws IOException {
        if (host == null || host.isEmpty()) {
            return List.of(new InetSocketAddress(port));
        }
        try {
            return List.of(new InetSocketAddress(InetAddress.ofLiteral(host), port));
        } catch (IllegalArgumentException notLiteral) {
            // a name: look it up off the loop
        }
        InetAddress[] found = await(loop.runInExecutor(null, () -> InetAddress.getAllByName(host)));
        return Arrays.stream(found).map(a -> new InetSocketAddress(a, port)).toList();
    }

    private static ProtocolFamily familyOf(SocketAddress address) {
        if (address instanceof UnixDomainSocketAddress) {
            return StandardProtocolFamily.UNIX;
        }
        if (address instanceof InetSocketAddress inet && inet.getAddress() instanceof java.net.Inet4Address) {
            return StandardProtocolFamily.INET;
        }
        return StandardProtocolFamily.INET6;
    }
}
