package io.jasyncio.http.websocket;

import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.sync.Event;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;

import java.io.IOException;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Flow control both ways and the keep-alive, over real sockets on every loop: a server that does
 * not receive stops reading once its queue is full, so the client's sends wait with a bounded
 * buffer, and everything arrives once it receives; a peer that does not answer pings is closed
 * with 1011, one that does stays open.
 */
@OnEveryLoop
@EveryEngine
class FlowControlTest {
    private static final WebSocketOptions OPTIONS = WebSocketOptions.defaults().withCompression(false).withPing(0, 0);

    @AsyncTest(debug = false, timeout = 20)
    void aSlowReceiverHoldsTheSenderBackWithBoundedBuffers(EventLoop loop) throws IOException {
        Event release = new Event();
        Future<WebSocket> serverSide = loop.createFuture();
        WebSocketOptions serverOptions = OPTIONS.withReceiveQueue(4);
        HttpServer http = HttpServer.startStreaming(getRunningLoop(), exchange -> {
            WebSocket ws = WebSocketServer.accept(exchange, serverOptions);
            serverSide.setResult(ws);
            release.await();
            WebSocketServer.run(ws, s -> {
                for (WebSocketMessage m : s.messages()) {
                    s.send(String.valueOf(m.bytes().length));
                }
            });
        }, "127.0.0.1", 0, HttpServerOptions.defaults());
        WebSocket client = WebSocketClient.connect(loop, EchoServer.url(http, "/"), OPTIONS.withWriteHighWater(32 * 1024));
        int count = 2000;
        Task<Void> sender = createTask(() -> {
            for (int i = 0; i < count; i++) {
                client.send(new byte[10_000]); // 20 MB in all
            }
        });
        HttpTestingLite.until(() -> !client.connection().isWritable());
        WebSocket server = await(serverSide);
        HttpTestingLite.until(() -> server.queuedMessages() >= 4);
        io.jasyncio.Asyncio.sleep(0.05); // what could still arrive has arrived
        assertFalse(sender.isDone(), "the sender waits for the receiver");
        assertTrue(server.queuedMessages() < 100, "the server stopped reading: " + server.queuedMessages() + " queued");
        assertTrue(client.connection().bufferedAmount() < 64 * 1024, "the client buffers " + client.connection().bufferedAmount());
        release.set();
        await(sender);
        for (int i = 0; i < count; i++) {
            assertEquals("10000", client.receive().text());
        }
        client.close();
        http.close();
    }

    @AsyncTest(debug = false, timeout = 20)
    void aPeerThatDoesNotAnswerPingsIsClosedWith1011(EventLoop loop) throws IOException {
        HttpServer http = EchoServer.start(OPTIONS.withPing(0.05, 0.1));
        WebSocket quiet = WebSocketClient.connect(loop, EchoServer.url(http, "/echo"), OPTIONS);
        quiet.connection().pauseReading(); // it hears no ping, so it sends no pong
        io.jasyncio.Asyncio.sleep(0.3);
        quiet.connection().resumeReading();
        WebSocketClosedException e = org.junit.jupiter.api.Assertions.assertThrows(WebSocketClosedException.class, quiet::receive);
        assertEquals(1011, e.code());
        assertEquals("keepalive ping timeout", e.reason());

        WebSocket lively = WebSocketClient.connect(loop, EchoServer.url(http, "/echo"), OPTIONS);
        io.jasyncio.Asyncio.sleep(0.3); // six pings, each answered
        lively.send("still here");
        assertEquals("still here", lively.receive().text());
        lively.close();
        http.close();
    }
}
