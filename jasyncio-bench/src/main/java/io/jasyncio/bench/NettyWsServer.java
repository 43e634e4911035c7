package io.jasyncio.bench;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.ChannelMatchers;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.util.Set;

/**
 * Netty's WebSocket server for bench/ws-compare.sh: ONE event-loop thread by default, codec-http's
 * textbook pipeline ({@code HttpServerCodec}, {@code HttpObjectAggregator},
 * {@code WebSocketServerProtocolHandler}, no compression). {@code /broadcast} sends each message
 * to every other connection on that path (a {@code ChannelGroup}); any other path echoes every
 * message as it came, flushed at the end of each read burst. Usage as {@link NettyHttpServer}.
 */
public final class NettyWsServer {
    private static final AttributeKey<Boolean> BROADCAST = AttributeKey.valueOf("broadcast");

    private NettyWsServer() {
    }

    static final class Frames extends SimpleChannelInboundHandler<WebSocketFrame> {
        private final ChannelGroup members;

        Frames(ChannelGroup members) {
            super(false);
            this.members = members;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
            if (event instanceof WebSocketServerProtocolHandler.HandshakeComplete done && done.requestUri().equals("/broadcast")) {
                ctx.channel().attr(BROADCAST).set(true);
                members.add(ctx.channel());
            }
            super.userEventTriggered(ctx, event);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
            if (Boolean.TRUE.equals(ctx.channel().attr(BROADCAST).get())) {
                members.writeAndFlush(frame, ChannelMatchers.isNot(ctx.channel()));
            } else {
                ctx.write(frame, ctx.voidPromise());
            }
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
        NettyServers.Options options = NettyServers.parse(args, "epoll", Set.of());
        ChannelGroup members = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        WebSocketServerProtocolConfig config = WebSocketServerProtocolConfig.newBuilder()
                .websocketPath("/").checkStartsWith(true).maxFramePayloadLength(1 << 20).build();
        NettyServers.serve(options, new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65536),
                        new WebSocketServerProtocolHandler(config), new Frames(members));
            }
        }, group -> { });
    }
}
