package io.jasyncio.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
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

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The Netty HTTP server of bench/compare-http.sh: ONE event-loop thread by default, the textbook
 * codec-http pipeline ({@code HttpServerCodec}, {@code HttpServerKeepAliveHandler}, a handler
 * answering each request head with one full response; flushed at the end of each read burst).
 * Every request gets the same body: "Hello, world!" (13 bytes) or {@code --size N} bytes, with
 * Content-Type, Content-Length and a Date formatted once per second, as the other peers send.
 * Usage: {@code NettyHttpServer --host 127.0.0.1 --port P --transport nio|epoll|io_uring [--threads N]
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
        NettyServers.Options options = NettyServers.parse(args, "epoll", Set.of("--size"));
        int size = options.ownInt("--size", -1);
        byte[] bytes = size < 0 ? "Hello, world!".getBytes(StandardCharsets.US_ASCII) : new byte[size];
        if (size >= 0) {
            java.util.Arrays.fill(bytes, (byte) 'x');
        }
        ByteBuf body = Unpooled.unreleasableBuffer(Unpooled.directBuffer(bytes.length).writeBytes(bytes));
        String[] date = {httpDate()};
        NettyServers.serve(options, new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(), new Responder(body, date));
            }
        }, group -> group.next().scheduleAtFixedRate(() -> date[0] = httpDate(), 1, 1, TimeUnit.SECONDS));
    }

    private static String httpDate() {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
    }
}
