package io.jasyncio.http.client;

import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.runCoroutineThreadsafe;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The README's client call, as it is printed there (between the markers), against our own server. */
class ReadmeClientExampleTest {

    @Test
    void theReadmesClientCallWorks() throws Exception {
        EventLoop loop = EventLoops.newEventLoop();
        Thread loopThread = Thread.ofPlatform().name("readme-loop").start(loop::runForever);
        try {
            HttpServer server = runCoroutineThreadsafe(() -> HttpServer.start(getRunningLoop(),
                    request -> HttpResponse.text(200, "Hello, world!"), "127.0.0.1", 0, HttpServerOptions.defaults()),
                    loop).get(10, TimeUnit.SECONDS);
            int port = server.port();
            CompletableFuture<Object[]> onTheLoop = runCoroutineThreadsafe(() -> {
                // README begin
                HttpClient client = HttpClient.create(getRunningLoop());
                try (HttpClientResponse response = client.get("http://127.0.0.1:" + port + "/")) {
                    String text = response.body().text();       // suspends this task until the body's end
                    // README end
                    return new Object[]{client, text};
                }
            }, loop);
            Object[] result = onTheLoop.get(10, TimeUnit.SECONDS);
            HttpClient client = (HttpClient) result[0];
            assertEquals("Hello, world!", result[1]);
            // README begin
            // from a plain thread, while the loop runs on its own: the whole response, as a CompletableFuture
            HttpResponse whole = client.getAsync("http://127.0.0.1:" + port + "/").get();
            // README end
            assertEquals("Hello, world!", whole.bodyText());
            client.close();
            runCoroutineThreadsafe(server::close, loop).get(10, TimeUnit.SECONDS);
        } finally {
            loop.callSoonThreadsafe(loop::stop);
            loopThread.join(10_000);
            loop.close();
        }
    }
}
