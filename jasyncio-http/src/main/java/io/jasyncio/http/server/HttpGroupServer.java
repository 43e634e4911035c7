package io.jasyncio.http.server;

import io.jasyncio.group.EventLoopGroup;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.GroupServer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An HTTP/1.1 server on every loop of an {@link EventLoopGroup} (one port, connections spread as
 * {@link GroupServer} spreads them); each connection lives on one loop. Use from any thread.
 */
public final class HttpGroupServer {
    private final EventLoopGroup group;
    private final GroupServer server;
    private final Map<EventLoop, ServerConnections> perLoop;

    private HttpGroupServer(EventLoopGroup group, GroupServer server, Map<EventLoop, ServerConnections> perLoop) {
        this.group = group;
        this.server = server;
        this.perLoop = perLoop;
    }

    /** Serves {@code host:port} on every loop of {@code group} with a whole-request handler. */
    public static CompletableFuture<HttpGroupServer> start(EventLoopGroup group, HttpHandler handler, String host,
                                                           int port, HttpServerOptions options, GroupServer.Mode mode) {
        return listen(group, options, handler, null, host, port, mode);
    }

    /** As {@link #start}, with a streaming handler. */
    public static CompletableFuture<HttpGroupServer> startStreaming(EventLoopGroup group, StreamingHandler handler,
                                                                    String host, int port, HttpServerOptions options,
                                                                    GroupServer.Mode mode) {
        return listen(group, options, null, handler, host, port, mode);
    }

    private static CompletableFuture<HttpGroupServer> listen(EventLoopGroup group, HttpServerOptions options,
                                                             HttpHandler whole, StreamingHandler streaming,
                                                             String host, int port, GroupServer.Mode mode) {
        Map<EventLoop, ServerConnections> perLoop = new ConcurrentHashMap<>();
        BodyBudget bodyBudget = new BodyBudget(options.bodyBufferBudget()); // one for all the loops
        return GroupServer.start(group,
                        loop -> perLoop.computeIfAbsent(loop, l -> new ServerConnections(l, options, whole, streaming, bodyBudget))
                                .newConnection(),
                        host, port, options.serverOptions(), mode)
                .thenApply(server -> new HttpGroupServer(group, server, perLoop));
    }

    public int port() {
        return server.port();
    }

    /** How connections reach the loops. */
    public GroupServer.Mode mode() {
        return server.mode();
    }

    /** As {@link HttpServer#shutdown}, on every loop; completes once every connection is gone. */
    public CompletableFuture<Void> shutdown(double gracePeriod) {
        return server.close().thenCompose(closed -> {
            List<CompletableFuture<Void>> loops = new ArrayList<>();
            for (ServerConnections connections : perLoop.values()) {
                loops.add(group.submit(connections.loop(), () -> {
                    connections.shutdown(gracePeriod);
                    return null;
                }));
            }
            return CompletableFuture.allOf(loops.toArray(CompletableFuture[]::new));
        });
    }
}
