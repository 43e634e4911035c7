package io.jasyncio.bench;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.Set;

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
        NettyServers.serve(NettyServers.parse(args, "nio", Set.of()), new Echo(), group -> { });
    }
}
