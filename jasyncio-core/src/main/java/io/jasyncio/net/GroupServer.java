package io.jasyncio.net;

import io.jasyncio.group.EventLoopGroup;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.task.Tasks;

import java.io.IOException;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
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
    /** How connections reach the loops (see the class comment). */
    public enum Mode {
        /** {@code REUSE_PORT} where the platform has it, else {@code ACCEPTOR}. */
        AUTO,
        /** Every loop listens on its own socket bound to the port; the kernel spreads connections. */
        REUSE_PORT,
        /** One loop accepts and hands each connection to the next loop in turn. */
        ACCEPTOR
    }

    private final EventLoopGroup group;
    private final Mode mode;
    private final List<Server> servers;
    private final Server acceptor; // ACCEPTOR mode's listening server, on the first loop; else null
    private final int port;

    private GroupServer(EventLoopGroup group, Mode mode, List<Server> servers, Server acceptor, int port) {
        this.group = group;
        this.mode = mode;
        this.servers = List.copyOf(servers);
        this.acceptor = acceptor;
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
            int bound = first.port();
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
            // A server as any other (binding, accepting in batches, pausing when out of
            // descriptors), except that it hands each accepted channel on instead of serving it.
            Server acceptor = Network.createServer(acceptorLoop, () -> factory.apply(acceptorLoop),
                    host == null ? null : List.of(host), port, options.withStartServing(false));
            acceptor.handAcceptedTo(new RoundRobin(servers, factory, options.tls()));
            acceptor.startServing();
            return new GroupServer(group, Mode.ACCEPTOR, servers, acceptor, acceptor.port());
        });
    }

    /** The ACCEPTOR mode's hand-off: each accepted channel to the next loop, where its transport is made. */
    private static final class RoundRobin implements Consumer<SocketChannel> {
        private final List<Server> servers;
        private final Function<EventLoop, ? extends BaseProtocol> factory;
        private final TlsOptions tls;
        private int next; // the acceptor's loop thread only

        RoundRobin(List<Server> servers, Function<EventLoop, ? extends BaseProtocol> factory, TlsOptions tls) {
            this.servers = servers;
            this.factory = factory;
            this.tls = tls;
        }

        /** The channel changes threads here: from now on only {@code target}'s loop touches it. */
        @Override
        public void accept(SocketChannel accepted) {
            Server target = servers.get(next);
            next = (next + 1) % servers.size();
            EventLoop to = target.getLoop();
            to.callSoonThreadsafe(() -> {
                try {
                    Network.startTransport(to, accepted, factory.apply(to), tls, true, null, target, null);
                } catch (Throwable t) {
                    closeQuietly(accepted);
                    Map<String, Object> context = new LinkedHashMap<>();
                    context.put("message", "Error on transport creation for incoming connection");
                    context.put("exception", t);
                    to.callExceptionHandler(context);
                }
            });
        }
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
        if (acceptor != null) {
            return acceptor.addresses();
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
            if (acceptor != null && server == servers.getFirst()) {
                acceptor.close();
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
