package io.jasyncio.bench;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What the Netty servers of the comparisons share: their command line ({@code --host},
 * {@code --port}, {@code --transport nio|epoll|io_uring}, {@code --threads N} and a server's own
 * options), one event-loop group that accepts and serves (the acceptor among its N threads), the
 * bootstrap (backlog 1024, TCP_NODELAY), the {@code listening on HOST:PORT} line, and serving
 * until killed.
 */
final class NettyServers {
    /** A server's command line: the common options, and its own by name. */
    record Options(String host, int port, String transport, int threads, Map<String, String> own) {
        int ownInt(String name, int orElse) {
            String v = own.get(name);
            return v == null ? orElse : Integer.parseInt(v);
        }
    }

    private NettyServers() {
    }

    /** Parses {@code args}; {@code ownOptions} are the names (with their dashes) this server takes beside the common ones. */
    static Options parse(String[] args, String defaultTransport, Set<String> ownOptions) {
        String host = "127.0.0.1";
        int port = 0;
        String transport = defaultTransport;
        int threads = 1;
        Map<String, String> own = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--host" -> host = args[i + 1];
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--transport" -> transport = args[i + 1];
                case "--threads" -> threads = Integer.parseInt(args[i + 1]);
                default -> {
                    if (!ownOptions.contains(args[i])) {
                        throw new IllegalArgumentException("unknown option " + args[i]);
                    }
                    own.put(args[i], args[i + 1]);
                }
            }
        }
        return new Options(host, port, transport, threads, own);
    }

    /**
     * Serves with {@code childHandler} on each connection until the process is killed;
     * {@code beforeBind} gets the group first (to schedule work on it).
     */
    static void serve(Options options, ChannelHandler childHandler, Consumer<EventLoopGroup> beforeBind)
            throws InterruptedException {
        IoHandlerFactory io;
        Class<? extends ServerChannel> channel;
        switch (options.transport()) {
            case "epoll" -> {
                Epoll.ensureAvailability();
                io = EpollIoHandler.newFactory();
                channel = EpollServerSocketChannel.class;
            }
            case "io_uring" -> {
                IoUring.ensureAvailability();
                io = IoUringIoHandler.newFactory();
                channel = IoUringServerSocketChannel.class;
            }
            case "nio" -> {
                io = NioIoHandler.newFactory();
                channel = NioServerSocketChannel.class;
            }
            default -> throw new IllegalArgumentException("--transport must be nio, epoll or io_uring, not " + options.transport());
        }
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(options.threads(), io);
        try {
            beforeBind.accept(group);
            Channel server = new ServerBootstrap()
                    .group(group, group)
                    .channel(channel)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(childHandler)
                    .bind(new InetSocketAddress(options.host(), options.port())).sync().channel();
            InetSocketAddress bound = (InetSocketAddress) server.localAddress();
            System.out.println("listening on " + bound.getHostString() + ":" + bound.getPort());
            System.out.flush();
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }
}
