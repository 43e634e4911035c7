package io.jasyncio.bench;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
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

/**
 * The Netty echo server of the comparison: ONE event-loop thread (accepting and serving; {@code
 * --threads N} for a group of N, the acceptor among them), the textbook handler (write what was
 * read, flush at the end of each read burst), NIO, native epoll or native io_uring. Usage:
 * {@code NettyEchoServer --host 127.0.0.1 --port P --transport nio|epoll|io_uring [--threads N]}; prints
 * {@code listening on HOST:PORT} once bound, runs until killed.
 */
public final class NettyEchoServer {
    private NettyEchoServer() {
    }

    @ChannelHandler.Sharable
    static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg, ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        String host = "127.0.0.1";
        int port = 0;
        String transport = "nio";
        int threads = 1;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--host" -> host = args[i + 1];
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--transport" -> transport = args[i + 1];
                case "--threads" -> threads = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        IoHandlerFactory io;
        Class<? extends ServerChannel> channel;
        if (transport.equals("epoll")) {
            Epoll.ensureAvailability();
            io = EpollIoHandler.newFactory();
            channel = EpollServerSocketChannel.class;
        } else if (transport.equals("io_uring")) {
            IoUring.ensureAvailability();
            io = IoUringIoHandler.newFactory();
            channel = IoUringServerSocketChannel.class;
        } else if (transport.equals("nio")) {
            io = NioIoHandler.newFactory();
            channel = NioServerSocketChannel.class;
        } else {
            throw new IllegalArgumentException("--transport must be nio, epoll or io_uring, not " + transport);
        }
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, io);
        try {
            Echo echo = new Echo();
            Channel server = new ServerBootstrap()
                    .group(group, group)
                    .channel(channel)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(echo)
                    .bind(new InetSocketAddress(host, port)).sync().channel();
            InetSocketAddress bound = (InetSocketAddress) server.localAddress();
            System.out.println("listening on " + bound.getHostString() + ":" + bound.getPort());
            System.out.flush();
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }
}
