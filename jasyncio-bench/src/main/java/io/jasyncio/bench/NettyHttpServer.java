package io.jasyncio.bench;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.TimeUnit;

/**
 * The Netty HTTP server of bench/compare-http.sh: ONE event-loop thread by default, the textbook
 * codec-http pipeline ({@code HttpServerCodec}, {@code HttpServerKeepAliveHandler}, a handler
 * answering each request head with one full response; flushed at the end of each read burst).
 * Every request gets the same body: "Hello, world!" (13 bytes) or {@code --size N} bytes, with
 * Content-Type, Content-Length and a Date formatted once per second, as the other peers send.
 * Usage: {@code NettyHttpServer --host 127.0.0.1 --port P --transport nio|epoll [--threads N]
 * [--size N]}; prints {@code listening on HOST:PORT} once bound, runs until killed.
 */
public final class NettyHttpServer {
    private NettyHttpServer() {
    }

    /** Answers each request head (the body of a GET is empty: its LastHttpContent is dropped). */
    static final class Responder extends SimpleChannelInboundHandler<Object> {
        private final ByteBuf body;
        private final String[] date;

        Responder(ByteBuf body, String[] date) {
            super(false);
            this.body = body;
            this.date = date;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpRequest request) {
                    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                            body.retainedDuplicate());
                    response.headers()
                            .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                            .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes())
                            .set(HttpHeaderNames.DATE, date[0]);
                    HttpUtil.setKeepAlive(response, HttpUtil.isKeepAlive(request));
                    ctx.write(response, ctx.voidPromise());
                }
            } finally {
                ReferenceCountUtil.release(msg);
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
        String host = "127.0.0.1";
        int port = 0;
        String transport = "epoll";
        int threads = 1;
        int size = -1;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--host" -> host = args[i + 1];
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--transport" -> transport = args[i + 1];
                case "--threads" -> threads = Integer.parseInt(args[i + 1]);
                case "--size" -> size = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        IoHandlerFactory io;
        Class<? extends ServerChannel> channel;
        if (transport.equals("epoll")) {
            Epoll.ensureAvailability();
            io = EpollIoHandler.newFactory();
            channel = EpollServerSocketChannel.class;
        } else if (transport.equals("nio")) {
            io = NioIoHandler.newFactory();
            channel = NioServerSocketChannel.class;
        } else {
            throw new IllegalArgumentException("--transport must be nio or epoll, not " + transport);
        }
        byte[] bytes = size < 0 ? "Hello, world!".getBytes(StandardCharsets.US_ASCII) : new byte[size];
        if (size >= 0) {
            java.util.Arrays.fill(bytes, (byte) 'x');
        }
        ByteBuf body = Unpooled.unreleasableBuffer(Unpooled.directBuffer(bytes.length).writeBytes(bytes));
        String[] date = {httpDate()};
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, io);
        try {
            group.next().scheduleAtFixedRate(() -> date[0] = httpDate(), 1, 1, TimeUnit.SECONDS);
            Channel server = new ServerBootstrap()
                    .group(group, group)
                    .channel(channel)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                                    new Responder(body, date));
                        }
                    })
                    .bind(new InetSocketAddress(host, port)).sync().channel();
            InetSocketAddress bound = (InetSocketAddress) server.localAddress();
            System.out.println("listening on " + bound.getHostString() + ":" + bound.getPort());
            System.out.flush();
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    private static String httpDate() {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
    }
}
