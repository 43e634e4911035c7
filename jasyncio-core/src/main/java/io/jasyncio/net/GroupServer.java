package io.jasyncio.net;

import io.jasyncio.group.EventLoopGroup;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.task.Tasks;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One TCP port served by every loop of an {@link EventLoopGroup}. Each connection lives on one
 * loop from accept to close, and its protocol's callbacks run on that loop's thread; each loop
 * keeps its connections in a {@link Server} of its own ({@link #servers()}), so closing and
 * waiting work per loop as for any server.
 *
 * <p>Two ways to spread the connections ({@link Mode}):
 * <ul>
 * <li>{@code REUSE_PORT}: every loop listens on its own socket bound to the same port with
 *     {@code SO_REUSEPORT}, and the kernel spreads incoming connections over them (by a hash of
 *     the addresses on Linux: even for many connections, uneven for few). Nothing crosses
 *     threads.</li>
 * <li>{@code ACCEPTOR}: the first loop listens and accepts; each accepted channel is handed to
 *     the next loop round-robin with {@code callSoonThreadsafe}, which makes its transport there.
 *     Exactly even, at the price of one cross-thread hand-off per connection.</li>
 * </ul>
 * {@code AUTO} picks {@code REUSE_PORT} where the platform has it (Linux, the BSDs, macOS).
 */
public final class GroupServer {
    public enum Mode { AUTO, REUSE_PORT, ACCEPTOR }

    private final EventLoopGroup group;
    private final Mode mode;
    private final List<Server> servers;
    private final ServerSocketChannel acceptorSocket;
    private final int port;

    private GroupServer(EventLoopGroup group, Mode mode, List<Server> servers, ServerSocketChannel acceptorSocket, int port) {
        this.group = group;
        this.mode = mode;
        this.servers = List.copyOf(servers);
        this.acceptorSocket = acceptorSocket;
        this.port = port;
    }

    /** Whether this platform's TCP sockets have {@code SO_REUSEPORT}. */
    public static boolean reusePortAvailable() {
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            return probe.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Starts serving {@code host:port} (port 0: one the system picks) on every loop of
     * {@code group}; {@code protocolFactory} is called on the loop that owns the new connection,
     * with that loop. Call from any thread; the future completes once every loop is accepting.
     */
    public static CompletableFuture<GroupServer> start(EventLoopGroup group,
                                                       Function<EventLoop, ? extends BaseProtocol> protocolFactory,
                                                       String host, int port, ServerOptions options, Mode mode) {
        Mode chosen = mode == Mode.AUTO ? (reusePortAvailable() ? Mode.REUSE_PORT : Mode.ACCEPTOR) : mode;
        return chosen == Mode.REUSE_PORT
                ? startReusePort(group, protocolFactory, host, port, options)
                : startAcceptor(group, protocolFactory, host, port, options);
    }

    /** As {@link #start}, running {@code callback} as a task per connection (asyncio's start_server), on its loop. */
    public static CompletableFuture<GroupServer> startStreams(EventLoopGroup group, ClientConnectedCallback callback,
                                                              String host, int port, ServerOptions options, Mode mode) {
        return start(group, loop -> new StreamReaderProtocol(loop, new StreamReader(loop, StreamReader.DEFAULT_LIMIT), callback),
                host, port, options, mode);
    }

    private static CompletableFuture<GroupServer> startReusePort(EventLoopGroup group,
                                                                 Function<EventLoop, ? extends BaseProtocol> factory,
                                                                 String host, int port, ServerOptions options) {
        ServerOptions reuse = options.withReusePort(true);
        List<EventLoop> loops = group.loops();
        // The first binds (port 0 picks the port), the others join it on the same port.
        return listenOn(group, loops.getFirst(), factory, host, port, reuse).thenCompose(first -> {
            int bound = portOf(first);
            List<CompletableFuture<Server>> all = new ArrayList<>();
            all.add(CompletableFuture.completedFuture(first));
            for (EventLoop loop : loops.subList(1, loops.size())) {
                all.add(listenOn(group, loop, factory, host, bound, reuse));
            }
            return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                    .thenApply(done -> new GroupServer(group, Mode.REUSE_PORT,
                            all.stream().map(CompletableFuture::join).toList(), null, bound));
        });
    }

    private static CompletableFuture<Server> listenOn(EventLoopGroup group, EventLoop loop,
                                                      Function<EventLoop, ? extends BaseProtocol> factory,
                                                      String host, int port, ServerOptions options) {
        return group.submit(loop, () -> Network.createServer(loop, () -> factory.apply(loop),
                host == null ? null : List.of(host), port, options));
    }

    private static CompletableFuture<GroupServer> startAcceptor(EventLoopGroup group,
                                                                Function<EventLoop, ? extends BaseProtocol> factory,
                                                                String host, int port, ServerOptions options) {
        List<Server> servers = new ArrayList<>();
        for (EventLoop loop : group.loops()) {
            // No socket of its own: it keeps the connections handed to its loop.
            servers.add(new Server(loop, List.of(), () -> factory.apply(loop), options.backlog(), options.tls(), null));
        }
        EventLoop acceptorLoop = group.loops().getFirst();
        return group.submit(acceptorLoop, () -> {
            ServerSocketChannel socket = ServerSocketChannel.open();
            try {
                if (options.reuseAddress()) {
                    socket.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                }
                List<InetSocketAddress> addresses = Network.resolve(acceptorLoop, host, port);
                socket.bind(addresses.getFirst(), options.backlog());
                socket.configureBlocking(false);
            } catch (Throwable t) {
                socket.close();
                throw t;
            }
            GroupServer server = new GroupServer(group, Mode.ACCEPTOR, servers, socket,
                    ((InetSocketAddress) socket.getLocalAddress()).getPort());
            new Acceptor(server, options, factory).listen();
            return server;
        });
    }

    /** The ACCEPTOR mode's loop side: accepts on the first loop, deals connections out round-robin. */
    private static final class Acceptor {
        private final GroupServer owner;
        private final ServerOptions options;
        private final Function<EventLoop, ? extends BaseProtocol> factory;
        private final EventLoop loop;
        private int next;

        Acceptor(GroupServer owner, ServerOptions options, Function<EventLoop, ? extends BaseProtocol> factory) {
            this.owner = owner;
            this.options = options;
            this.factory = factory;
            this.loop = owner.servers.getFirst().getLoop();
        }

        void listen() {
            loop.addReader(owner.acceptorSocket, this::acceptReady);
        }

        private void acceptReady() {
            for (int i = 0; i < options.backlog(); i++) {
                SocketChannel accepted;
                try {
                    accepted = owner.acceptorSocket.accept();
                } catch (ClosedChannelException e) {
                    return;
                } catch (IOException e) {
                    acceptFailed(e);
                    return;
                }
                if (accepted == null) {
                    return;
                }
                Server target = owner.servers.get(next);
                next = (next + 1) % owner.servers.size();
                handOver(accepted, target);
            }
        }

        /** The channel changes threads here: from now on only {@code target}'s loop touches it. */
        private void handOver(SocketChannel accepted, Server target) {
            EventLoop to = target.getLoop();
            try {
                accepted.configureBlocking(false);
                to.callSoonThreadsafe(() -> {
                    try {
                        Network.startTransport(to, accepted, factory.apply(to), options.tls(), true, null, target, null);
                    } catch (Throwable t) {
                        closeQuietly(accepted);
                        report(to, "Error on transport creation for incoming connection", t);
                    }
                });
            } catch (Throwable t) {
                closeQuietly(accepted);
                report(loop, "Error handing an accepted connection to its loop", t);
            }
        }

        /** As {@link Server}: out of descriptors, pause accepting for a second instead of spinning. */
        private void acceptFailed(IOException e) {
            report(loop, "socket.accept() failed", e);
            if (Server.isOutOfResources(e)) {
                loop.removeReader(owner.acceptorSocket);
                loop.callLater(Server.ACCEPT_RETRY_DELAY, () -> {
                    if (owner.acceptorSocket.isOpen()) {
                        listen();
                    }
                });
            }
        }

        private void report(EventLoop on, String message, Throwable exc) {
            Map<String, Object> context = new LinkedHashMap<>();
            context.put("message", message);
            context.put("exception", exc);
            context.put("socket", owner.acceptorSocket);
            on.callExceptionHandler(context);
        }
    }

    private static int portOf(Server server) {
        return ((InetSocketAddress) server.addresses().getFirst()).getPort();
    }

    private static void closeQuietly(java.nio.channels.Channel c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // already broken
        }
    }

    /** How the connections are spread ({@code REUSE_PORT} or {@code ACCEPTOR}, never {@code AUTO}). */
    public Mode mode() {
        return mode;
    }

    /** The port every loop serves. */
    public int port() {
        return port;
    }

    /** The listening addresses: one per loop with {@code REUSE_PORT}, the acceptor's alone otherwise. */
    public List<SocketAddress> addresses() {
        if (acceptorSocket != null) {
            try {
                return List.of(acceptorSocket.getLocalAddress());
            } catch (IOException closed) {
                return List.of();
            }
        }
        List<SocketAddress> all = new ArrayList<>();
        servers.forEach(s -> all.addAll(s.addresses()));
        return all;
    }

    /** One server per loop, in the group's order: each holds the connections of its loop. Use each on its loop. */
    public List<Server> servers() {
        return servers;
    }

    /** Stops accepting on every loop (connections already made go on); completes once every listener is closed. */
    public CompletableFuture<Void> close() {
        return onEveryLoop(server -> {
            if (acceptorSocket != null && server == servers.getFirst()) {
                server.getLoop().removeReader(acceptorSocket);
                closeQuietly(acceptorSocket);
            }
            server.close();
            Tasks.yieldNow(); // a channel the poller watched is released at its next turn: then the port is free
        });
    }

    /** Completes once the server is closed and every connection it made, on every loop, has ended. */
    public CompletableFuture<Void> waitClosed() {
        return onEveryLoop(Server::waitClosed);
    }

    /** Closes every connection on every loop (asyncio 3.13's close_clients). */
    public CompletableFuture<Void> closeClients() {
        return onEveryLoop(Server::closeClients);
    }

    private interface OnLoop {
        void run(Server server) throws Exception;
    }

    private CompletableFuture<Void> onEveryLoop(OnLoop action) {
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (Server s : servers) {
            all.add(group.submit(s.getLoop(), () -> {
                action.run(s);
                return null;
            }));
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
    }

    @Override
    public String toString() {
        return "<GroupServer port=" + port + " mode=" + mode + " loops=" + servers.size() + ">";
    }
}
